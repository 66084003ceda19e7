#!/usr/bin/env python3
"""The demo's agent (npm run demo): a small coding agent that works the way the real CLIs do.

It sends its prompt to its model in Chat Completions (SWECI_BASE_URL, SWECI_API_KEY and
SWECI_MODEL, which SWE-CI gives a custom agent with an endpoint: the model gateway and a token of
this try), offers two tools, `bash` {command, workdir} and `write` {filePath, content}, runs each
call the model makes, sends the results back, and stops when the model answers with text. Every
change it makes is one the model asked for. In the demo its model is the stand-in model that the
demo starts on 127.0.0.1 (scripts/stand-in-model); with a real model endpoint it is a real,
if very plain, agent. Standard library only.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

sys.dont_write_bytecode = True

SYSTEM = "You are a coding agent. Use the tools to do the task, then say in one line what you did."
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Runs a shell command and returns what it printed.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}, "workdir": {"type": "string"}},
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write",
            "description": "Writes a whole file (its folders are made).",
            "parameters": {
                "type": "object",
                "properties": {"filePath": {"type": "string"}, "content": {"type": "string"}},
                "required": ["filePath", "content"],
            },
        },
    },
]
MAX_TURNS = 60
COMMAND_TIMEOUT = 120


def read_prompt():
    """The prompt on stdin, or in the file named by the first argument ({promptFile})."""
    if len(sys.argv) > 1 and os.path.isfile(sys.argv[1]):
        with open(sys.argv[1], encoding="utf-8") as f:
            return f.read()
    return sys.stdin.read()


def ask(messages):
    body = json.dumps({"model": os.environ.get("SWECI_MODEL", ""), "messages": messages, "tools": TOOLS}).encode()
    req = urllib.request.Request(
        os.environ["SWECI_BASE_URL"].rstrip("/") + "/chat/completions",
        data=body,
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ.get("SWECI_API_KEY", "")},
    )
    with urllib.request.urlopen(req, timeout=300) as r:
        return json.load(r)["choices"][0]["message"]


def run_tool(name, args):
    if name == "bash":
        try:
            r = subprocess.run(
                ["bash", "-c", args.get("command", "")],
                cwd=args.get("workdir") or None,
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return "error: %s" % e
        return r.stdout + r.stderr + ("" if r.returncode == 0 else "(exit status %d)" % r.returncode)
    if name == "write":
        target = args.get("filePath", "")
        if not os.path.isabs(target):
            return "error: filePath must be absolute"
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(args.get("content", ""))
        return "Wrote %s" % target
    return "error: no tool named %s" % name


def main():
    if "SWECI_BASE_URL" not in os.environ:
        print("demo-agent: no model endpoint (set sweci.agents.baseUrl); nothing done", flush=True)
        return 2
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": read_prompt()}]
    for _ in range(MAX_TURNS):
        try:
            answer = ask(messages)
        except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError) as e:
            print("demo-agent: the model call failed: %s" % e, flush=True)
            return 1
        calls = answer.get("tool_calls") or []
        messages.append({"role": "assistant", "content": answer.get("content"), **({"tool_calls": calls} if calls else {})})
        if not calls:
            print(answer.get("content") or "", flush=True)
            return 0
        for call in calls:
            fn = call.get("function") or {}
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = {}
            output = run_tool(fn.get("name", ""), args if isinstance(args, dict) else {})
            print("%s -> %s" % (fn.get("name"), output.strip()[:200]), flush=True)
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": output})
    print("demo-agent: stopped after %d model calls" % MAX_TURNS, flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())
