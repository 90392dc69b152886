"""What both stores keep with the same code: each part's rows in a module of its own, written once over the rows a
store gives (:class:`~cafe.server.storage.account_rows.Rows`), and gathered here so that SQLite's store and
PostgreSQL's have them alike."""

from __future__ import annotations

from cafe.server.storage.account_rows import AccountRows
from cafe.server.storage.analysis_rows import AnalysisRows
from cafe.server.storage.bot_rows import BotRows
from cafe.server.storage.email_rows import EmailRows
from cafe.server.storage.holiday_rows import HolidayRows
from cafe.server.storage.invitations import InvitationRows
from cafe.server.storage.passkey_rows import PasskeyRows
from cafe.server.storage.push_rows import PushRows
from cafe.server.storage.sent_rows import SentRows
from cafe.server.storage.tournament_rows import TournamentRows


class SharedRows(
    AccountRows,
    InvitationRows,
    TournamentRows,
    PasskeyRows,
    EmailRows,
    HolidayRows,
    PushRows,
    BotRows,
    AnalysisRows,
    SentRows,
):
    """Accounts, invitations, tournaments, passkeys, e-mail, holidays, Web Push, bot accounts, analyses and the
    notices sent: every store's, over its own rows."""
