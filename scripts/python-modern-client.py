# A 2026-07-28 client on the official Python MCP SDK (its high-level Client, which probes server/discover first) driving
# sessionwright's sessions by id.
#
# Usage: python python-modern-client.py <form-page-url> http <server-url>/mcp
#        python python-modern-client.py <form-page-url> stdio <command> [args...]
#
# Over HTTP every step opens a client of its own, so nothing but the sessionId carries a session from one request to the
# next: one client creates two sessions, later clients navigate them in parallel, type, read a snapshot and click the
# button by its ref. Over stdio one client (one server process) does the same. It prints one JSON line with what it saw
# and exits 0, or exits 1 saying what failed.
import asyncio
import json
import re
import sys

from mcp import Client, StdioServerParameters


def check(condition, what):
    if not condition:
        raise AssertionError(what)


async def call(client, name, arguments=None):
    result = await client.call_tool(name, arguments or {})
    text = result.content[0].text if result.content else ""
    check(not result.is_error, f"{name} failed: {text}")
    return json.loads(text)


async def run(page_url, target):
    def fresh():
        return Client(target, mode="auto")

    protocols = set()

    async def step(fn):
        # Over HTTP each step is a client of its own; over stdio they share the one process.
        if isinstance(target, str):
            async with fresh() as client:
                protocols.add(client.protocol_version)
                await client.list_tools()
                return await fn(client)
        return await fn(shared)

    shared = None
    if not isinstance(target, str):
        shared = await fresh().__aenter__()
        protocols.add(shared.protocol_version)
        await shared.list_tools()
    try:
        first, second = await step(lambda c: asyncio.gather(call(c, "create_session"), call(c, "create_session")))
        a, b = first["sessionId"], second["sessionId"]
        pages = await asyncio.gather(
            step(lambda c: call(c, "navigate", {"sessionId": a, "url": page_url})),
            step(lambda c: call(c, "navigate", {"sessionId": b, "url": "about:blank"})),
        )
        check(pages[0]["title"] == "Form" and pages[1]["url"] == "about:blank", f"the sessions answered {pages!r}")
        typed = await step(lambda c: call(c, "type", {"sessionId": a, "selector": "#name", "text": "Ada"}))
        check(typed["value"] == "Ada", f"type answered {typed!r}")
        snapshot = (await step(lambda c: call(c, "snapshot", {"sessionId": a})))["snapshot"]
        ref = re.search(r'button "Send" \[ref=([^\]]+)\]', snapshot)
        check(ref is not None, f"no Send button with a ref in the snapshot:\n{snapshot}")
        clicked = await step(lambda c: call(c, "click", {"sessionId": a, "ref": ref.group(1)}))
        other = await step(lambda c: call(c, "snapshot", {"sessionId": b}))
        for session_id in (a, b):
            await step(lambda c, s=session_id: call(c, "close_session", {"sessionId": s}))
        print(json.dumps({"protocols": sorted(protocols), "clicked": clicked["url"], "other": other["url"]}), flush=True)
    finally:
        if shared is not None:
            await shared.__aexit__(None, None, None)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("http", "stdio"):
        print("usage: python-modern-client.py <form-page-url> http <url> | stdio <command> [args...]", file=sys.stderr)
        return 2
    page_url, mode = argv[0], argv[1]
    target = argv[2] if mode == "http" else StdioServerParameters(command=argv[2], args=argv[3:])
    try:
        asyncio.run(run(page_url, target))
    except Exception as error:  # noqa: BLE001 - any failure is reported the same way
        print(f"python-modern-client: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
