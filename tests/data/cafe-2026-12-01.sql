BEGIN TRANSACTION;
CREATE TABLE analyses (
    room TEXT PRIMARY KEY,
    analysis TEXT NOT NULL
);
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    name TEXT NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    name_key TEXT
);
INSERT INTO "players" VALUES(1,'Ann','135f42ff09668c0cddef29f453887c3d9b7291d79b6208852017e37de6da97d1',1.7961487829186155796e+09,'ann');
INSERT INTO "players" VALUES(2,'Bob','c825e30b328df9048c5e2e6bc624abd522d1f23417fbe453ebcb4ad0ba15ebd8',1.7961487829187955857e+09,'bob');
CREATE TABLE ratings (
    player INTEGER PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL
);
INSERT INTO "ratings" VALUES(1,27.0,7.0,1);
INSERT INTO "ratings" VALUES(2,23.0,7.0,1);
CREATE TABLE results (
    room TEXT NOT NULL,
    player INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    place INTEGER NOT NULL,
    rating_before REAL,
    rating_after REAL,
    at REAL NOT NULL,
    PRIMARY KEY (room, player)
);
INSERT INTO "results" VALUES('r1',1,0,2,NULL,6.0,1.7961487829191715717e+09);
INSERT INTO "results" VALUES('r1',2,1,1,NULL,2.0,1.79614878291917204854e+09);
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    edition TEXT NOT NULL,
    rules TEXT NOT NULL,
    host INTEGER NOT NULL,
    status TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    record TEXT,
    match TEXT,
    hints INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "rooms" VALUES('r1','Ann''s table','cards','"printed"',1,'finished',7,1.79614878291890740389e+09,'{"format": "cafe-record-1", "edition": "cards", "rules": "printed", "board": "cards-x", "players": ["Ann", "Bob"], "deck": ["RUSm", "ITAf", "TURm", "RUSm", "CUBm", "GBRm", "GERf", "AFRf", "AFRf", "TURm", "INDm", "FRAf", "FRAm", "GERf", "TURm", "GERf", "GBRf", "RUSm", "FRAf", "CHNm", "CHNf", "USAm", "CUBf", "INDm", "CUBf", "AFRf", "INDf", "ESPf", "CUBm", "ITAf", "ESPf", "ITAm", "INDf", "GBRm", "GBRm", "ESPm", "CUBm", "USAm", "INDm", "ESPm", "CHNm", "FRAm", "AFRf", "USAf", "TURf", "INDf", "TURf", "CUBm", "USAf", "GBRf", "INDf", "INDm", "ITAf", "RUSm", "GBRf", "GERm", "FRAf", "USAm", "FRAm", "ITAm", "FRAf", "USAf", "ESPf", "FRAm", "CUBf", "AFRm", "RUSf", "USAf", "USAm", "RUSf", "ESPm", "CHNm", "RUSf", "TURm", "GERm", "ITAm", "TURf", "ESPm", "CHNf", "GERm", "GERm", "CHNf", "AFRm", "ESPf", "ITAf", "AFRm", "RUSf", "GBRm", "CHNm", "ITAm", "CHNf", "AFRm", "TURf", "GERf", "CUBf", "GBRf"], "table_cards": ["GER", "GBR", "CHN", "ITA", "FRA", "ESP", "GBR", "AFR", "IND", "RUS", "TUR", "FRA", "CHN", "USA", "AFR", "RUS", "TUR", "ITA", "USA", "CUB", "CUB", "GER", "ESP", "IND"], "turns": ["GBRm@c4,ITAf@c2", "FRAm@d1,FRAf@d3", "draw", "draw", "draw", "draw", "GBRf@b5", "draw", "draw", "draw", "draw", "CHNf@d5", "draw", "draw", "CHNm@e4", "FRAf@e2", "draw", "draw", "draw", "draw", "draw", "draw", "draw", "draw", "down:USAm", "down:ITAm", "draw", "draw", "down:CUBm", "down:ITAf", "draw", "GBRm@c4,ESPf@e4", "down:GBRm", "draw", "ESPf@d5", "ESPm@d3", "draw", "draw", "draw", "draw", "down:INDm", "draw", "draw", "down:AFRf", "down:GERf", "draw", "draw", "down:TURm", "down:TURm", "draw", "draw", "down:RUSm", "down:CUBf", "draw", "draw", "down:USAm", "down:CUBm", "draw", "draw", "down:GERf", "down:CUBf", "draw", "draw", "down:INDf", "down:TURm", "draw", "draw", "down:GERf", "down:CUBm", "draw", "draw", "down:TURf", "down:FRAm", "draw", "GERm@d3,GBRf@e4", "down:INDm", "draw", "GBRf@d5", "draw", "draw", "draw", "ITAm@a2,AFRf@c2", "down:RUSm", "AFRf@d1", "draw", "draw", "down:USAf", "draw", "draw", "draw", "down:USAf", "draw", "draw", "down:TURf", "down:FRAm", "draw", "draw", "down:FRAm", "down:FRAf", "AFRm@e2,ITAf@b1,INDm@c2", "INDf@e2", "draw", "INDf@d1", "draw", "draw", "draw", "draw", "draw", "draw", "down:USAm", "down:GERm", "draw", "draw", "down:CHNm", "down:CUBm", "draw", "draw", "down:TURm", "down:GERm", "draw", "draw", "down:ITAm", "down:RUSf", "draw", "draw", "down:CHNf", "down:AFRm", "draw", "draw", "down:FRAf", "down:RUSm", "draw", "draw", "down:AFRf", "down:INDm", "GBRm@a4", "ITAf@b3,RUSm@b3,RUSf@a2", "draw", "RUSf@b1", "draw", "draw", "down:USAf", "draw", "draw", "draw", "down:ESPf", "draw"]}',NULL,0);
CREATE TABLE seats (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player INTEGER,
    bot TEXT,
    name TEXT NOT NULL,
    left_by INTEGER,
    PRIMARY KEY (room, seat)
);
INSERT INTO "seats" VALUES('r1',0,1,NULL,'Ann',NULL);
INSERT INTO "seats" VALUES('r1',1,2,NULL,'Bob',NULL);
CREATE TABLE steps (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    step TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE INDEX players_name_key ON players (name_key);
CREATE INDEX results_player ON results (player, at);
CREATE INDEX chat_room ON chat (room, id);
COMMIT;
PRAGMA user_version = 12;
