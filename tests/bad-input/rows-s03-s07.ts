// 坏输入表：provider 事件、工具参数、钩子、会话树（s03–s07）。每行写明不可信的输入和预期的结构化结果（形状见 ./harness.ts）。
import { echoTool } from "../../tooling/assemble-agent.ts";
import { type Hooks, type ToolLike, describeError } from "../../tooling/lesson.ts";
import { assistant as a, call, delta, end, start, text, toolUse, toolResult as r, user as u } from "../../tooling/screenplay.ts";
import { type Row, secondTurn, FIRST, argsRow, hookRow } from "./harness.ts";

export const ROWS_S03_S07: Row[] = [
  // ── provider 事件（s03 起） ────────────────────────────
  {
    id: "events-out-of-order",
    since: "s03",
    input: "text_delta 早于 message_start；message_start 出现两次；message_end 之后还有文字和第二个 message_end",
    run: (h) => secondTurn(h, [[delta("a"), start, delta("b"), start, end("stop"), delta("never"), end("error")]]),
    expected: { reply: a("ab"), messages: [...FIRST, u("second"), a("ab")] },
  },
  {
    id: "throw-after-message-end",
    since: "s03",
    input: "message_end 之后流才抛错（不该再读）",
    run: (h) => secondTurn(h, [[start, delta("a"), end("stop"), { type: "throw", message: "late" }]]),
    expected: { reply: a("a"), messages: [...FIRST, u("second"), a("a")] },
  },
  {
    id: "empty-delta-then-break",
    since: "s03",
    input: "只收到一段空文字，流就断了（D6：已收到的文字是空的，内容应只有那一行 error）",
    run: (h) => secondTurn(h, [[start, delta(""), { type: "throw", message: "connection reset" }]]),
    expected: { reply: a("error: connection reset", "error"), messages: [...FIRST, u("second"), a("error: connection reset", "error")] },
  },
  {
    id: "stream-throws-synchronously",
    since: "s03",
    input: "provider.stream 还没交出事件流就同步抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.provider = {
        stream: () => {
          throw new Error("rate limited");
        },
      };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("error: rate limited", "error"), messages: [...FIRST, u("second"), a("error: rate limited", "error")] },
  },
  {
    id: "tool-calls-around-message-end",
    since: "s04",
    input: "tool_call 早于 message_start；message_end(toolUse) 之后又来一个 tool_call（D19：之后的不执行）",
    async run(h) {
      const t = echoTool("a");
      const { messages } = await secondTurn(
        h,
        [[{ type: "tool_call", call: call("c1", "a", { text: "x" }) }, start, end("toolUse"), { type: "tool_call", call: call("c2", "a", { text: "y" }) }], text("done")],
        { tools: [t.tool] },
      );
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "a:x"), a("done")], handlerCalls: [{ text: "x" }] },
  },

  // ── 工具参数（s04 起，D18） ────────────────────────────
  argsRow("args-missing", "参数缺失", {}, 'error: invalid arguments for tool "read": argument "path" is missing'),
  argsRow("args-extra", "多出参数", { path: "x", extra: "y" }, 'error: invalid arguments for tool "read": unexpected argument "extra"'),
  argsRow("args-missing-and-extra", "缺一个、多一个", { file: "x" }, 'error: invalid arguments for tool "read": argument "path" is missing; unexpected argument "file"'),
  argsRow("args-number", "参数不是字符串：数字", { path: 42 }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-null", "参数不是字符串：null", { path: null }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-array", "参数不是字符串：数组", { path: ["a"] }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-object", "参数不是字符串：对象", { path: { p: "a" } }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-not-object-null", "整个参数是 null", null, 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow("args-not-object-string", "整个参数是字符串", "src/main.ts", 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow("args-not-object-array", "整个参数是数组", ["src/main.ts"], 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow(
    "args-missing-prototype-name",
    "缺的参数恰好叫 constructor（Object.prototype 上有同名成员）",
    {},
    'error: invalid arguments for tool "make": argument "constructor" is missing',
    { name: "make", params: ["constructor"] },
  ),
  {
    id: "unknown-tool",
    since: "s04",
    input: "调用没登记的工具，名字里带引号（名字原样放进引号里，不转义）",
    async run(h) {
      const { messages } = await secondTurn(h, [toolUse("", call("c1", 'no"pe', {})), text("done")]);
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", 'error: unknown tool "no"pe"'), a("done")] },
  },
  {
    id: "handler-throws-non-error",
    since: "s04",
    input: "handler 抛的不是 Error（一个字符串）",
    async run(h) {
      const boom: ToolLike = {
        spec: { name: "boom", description: "", input: {} },
        handler: () => {
          throw "plain string";
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "boom", {})), text("done")], { tools: [boom] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: plain string"), a("done")] },
  },

  // ── 钩子（s05 起，D16） ────────────────────────────────
  ...(
    [
      ["hook-before-throws", "beforeToolCall 抛错", { beforeToolCall: () => { throw new Error("policy down"); } }, "error: hook failed: policy down", []],
      ["hook-after-throws", "afterToolCall 抛错（handler 已经跑过，结果作废）", { afterToolCall: () => { throw new Error("redactor down"); } }, "error: hook failed: redactor down", [{ text: "x" }]],
      ["hook-throws-non-error", "钩子抛的不是 Error", { beforeToolCall: () => { throw 7; } }, "error: hook failed: 7", []],
    ] as [string, string, Hooks, string, Record<string, string>[]][]
  ).map(hookRow),

  // ── 会话树（s07 起） ───────────────────────────────────
  {
    id: "moveTo-unknown",
    since: "s07",
    input: "moveTo 一个不存在的 id",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still here")] });
      await h.mod.runOneTurn(b.agent, "first");
      const tree = b.agent.state.messages;
      if (Array.isArray(tree)) throw new Error("no tree");
      const before = JSON.stringify([tree.allEntries(), tree.currentPath()]);
      let error: string | undefined;
      try {
        tree.moveTo("e99");
      } catch (e) {
        error = describeError(e);
      }
      const unchanged = JSON.stringify([tree.allEntries(), tree.currentPath()]) === before;
      await h.mod.runOneTurn(b.agent, "second");
      return { error, unchanged, path: tree.currentPath() };
    },
    expected: { error: 'moveTo: no entry with id "e99"', unchanged: true, path: [...FIRST, u("second"), a("still here")] },
  },
];
