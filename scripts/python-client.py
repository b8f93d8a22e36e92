# A client for the playwright profile built on the official Python MCP SDK, behaving as agent frameworks' PlaywrightSession does.
#
# Usage: python python-client.py <page-url> [--dialog <dialog-page-url>] stdio <command> [args...]
#        python python-client.py <page-url> [--dialog <dialog-page-url>] sse <server-url>   (env SESSIONWRIGHT_BEARER: a token to send)
#
# It connects lazily on the first call (stdio_client, or sse_client on the URL it is given), calls browser_navigate
# {url} and browser_snapshot {} without a session id, reads only content[0].text, and json.loads the snapshot's
# text for url and title, as such frameworks document. Then it opens two sessions with create_session and drives them
# in parallel through sessionId. With --dialog (a page whose #confirm button calls confirm() and writes the answer into
# #confirm-result), it clicks that button, reads the modalState the click returns, and accepts the dialog with
# browser_handle_dialog. It prints one JSON line with what it saw and exits 0, or exits 1 saying what failed.
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client


class PlaywrightSession:
    """One persistent MCP connection, opened on the first call and closed by close()."""

    def __init__(self, server_params):
        self.server_params = server_params
        self.read = None
        self.write = None
        self.session = None
        self._client = None

    async def connect(self):
        if self.session is not None:
            return
        if isinstance(self.server_params, StdioServerParameters):
            self._client = stdio_client(self.server_params)
        else:
            # A server with client identities: the token comes from SESSIONWRIGHT_BEARER.
            token = os.environ.get("SESSIONWRIGHT_BEARER")
            self._client = sse_client(self.server_params, headers={"Authorization": f"Bearer {token}"} if token else None)
        self.read, self.write = await self._client.__aenter__()
        self.session = ClientSession(self.read, self.write)
        await self.session.__aenter__()
        await self.session.initialize()

    async def call_tool(self, tool_name, arguments=None):
        if self.session is None:
            await self.connect()
        tool_result = await self.session.call_tool(tool_name, arguments=arguments)
        return tool_result.content[0].text if tool_result.content else ""

    async def close(self):
        if self.session:
            await self.session.__aexit__(None, None, None)
            self.session = None
        if self._client:
            await self._client.__aexit__(None, None, None)
            self._client = None
        self.read = None
        self.write = None


def check(condition, what):
    if not condition:
        raise AssertionError(what)


async def answer_confirm(session, dialog_url):
    """Clicks #confirm, which opens a confirm(); the click returns saying so, and browser_handle_dialog accepts it."""
    await session.call_tool("browser_navigate", {"url": dialog_url})
    clicked = json.loads(await session.call_tool("browser_click", {"element": "Confirm button", "target": "#confirm"}))
    modal = clicked.get("modalState") or {}
    check(modal.get("type") == "dialog" and modal.get("dialogType") == "confirm", f"the click answered {clicked!r}")
    check("browser_handle_dialog" in clicked.get("message", ""), "the click's message does not name browser_handle_dialog")
    answered = json.loads(await session.call_tool("browser_handle_dialog", {"accept": True}))
    check(answered.get("url") == dialog_url, f"browser_handle_dialog answered {answered!r}")
    shown = json.loads(await session.call_tool("browser_evaluate", {"function": "() => document.getElementById('confirm-result').textContent"}))
    check(shown.get("result") == "true", f"the page saw {shown!r}")
    return modal["dialogType"]


async def run(page_url, server_params, dialog_url=None):
    session = PlaywrightSession(server_params)
    try:
        await session.call_tool("browser_navigate", {"url": page_url})
        snapshot = await session.call_tool("browser_snapshot", {})
        data = json.loads(snapshot)
        check(data.get("url") == page_url, f"browser_snapshot url is {data.get('url')!r}, expected {page_url!r}")
        check("[ref=" in data.get("snapshot", ""), "browser_snapshot has no refs")

        # Two sessions of its own, driven at the same time, while the implicit page stays where it was.
        first = json.loads(await session.call_tool("create_session", {}))["sessionId"]
        second = json.loads(await session.call_tool("create_session", {}))["sessionId"]
        blank = "about:blank"
        pages = await asyncio.gather(
            session.call_tool("browser_navigate", {"url": page_url, "sessionId": first}),
            session.call_tool("browser_evaluate", {"function": "() => location.href", "sessionId": second}),
        )
        check(json.loads(pages[0])["url"] == page_url, "the first session did not navigate")
        check(json.loads(pages[1])["result"] == blank, "the second session is not on its own blank page")
        again = json.loads(await session.call_tool("browser_snapshot", {}))
        check(again["url"] == page_url, "the implicit page moved")

        missing = json.loads(await session.call_tool("browser_click", {"element": "nothing", "target": "#no-such-element-here"}))
        check(missing.get("errorCode") == "ELEMENT_NOT_FOUND", f"a missing element answered {missing!r}")
        listed = json.loads(await session.call_tool("list_sessions", {}))
        summary = {"url": data["url"], "title": data["title"], "refs": True, "sessions": len(listed["sessions"])}
        if dialog_url is not None:
            summary["dialog"] = await answer_confirm(session, dialog_url)
        print(json.dumps(summary), flush=True)
    finally:
        await session.close()


def main(argv):
    dialog_url = None
    if len(argv) >= 3 and argv[1] == "--dialog":
        dialog_url = argv[2]
        argv = [argv[0], *argv[3:]]
    if len(argv) < 3 or argv[1] not in ("stdio", "sse"):
        print("usage: python-client.py <page-url> [--dialog <dialog-page-url>] stdio <command> [args...] | sse <server-url>", file=sys.stderr)
        return 2
    page_url, mode = argv[0], argv[1]
    params = StdioServerParameters(command=argv[2], args=argv[3:]) if mode == "stdio" else argv[2]
    try:
        asyncio.run(run(page_url, params, dialog_url))
    except AssertionError as error:
        print(f"python-client: FAIL: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
