"""How to play each edition, as the café's page reads it: ``/howto/board.json?lang=de`` gives the sections and the
examples' drawings in the reader's language (docs/protocol.md)."""

from __future__ import annotations

import functools
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import pick
from cafe.learn.howto import EDITIONS, page


@functools.cache
def cached(edition: str, language: str) -> dict[str, Any]:
    """The page of an edition in a language: the same every time, so drawn once."""
    return page(edition, language)


async def howto(request: Request) -> Response:
    edition = request.path_params["edition"]
    if edition not in EDITIONS:
        return JSONResponse({"error": "no such edition: board or cards"}, status_code=404)
    return JSONResponse(cached(edition, pick([request.query_params.get("lang", "")])))


def routes() -> list[Route]:
    return [Route("/howto/{edition}.json", howto)]
