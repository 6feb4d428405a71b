// 坏输入表：issue 13 的每道边界，第 1–6 类。每行写明不可信的输入和预期的结构化结果（形状见 ./harness.ts）。
import { expect } from "vitest";
import { echoTool } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { Hooks, Msg, ToolLike } from "../../tooling/lesson.ts";
import { type Step, assistant as a, call, delta, end, start, text, toolUse, toolResult as r, user as u } from "../../tooling/screenplay.ts";
import { type Row, secondTurn, FIRST, argsRow, brokenForOneTurn, nested, hookRow } from "./harness.ts";

export const ROWS_BOUNDARIES_1_6: Row[] = [
  // ══ issue 13：每道边界（第 1–11 类），一类至少一行 ══════════════
  // ── 第 1 类：抛出来的东西连文字都转不出来（s01 起） ──────────
  {
    id: "provider-throws-null-prototype",
    since: "s01",
    input: "provider 抛一个没有原型的对象（String() 会再抛一次）",
    run: async (h) => {
      const b = h.agent({ responses: [text("ok")] });
      await h.mod.runOneTurn(b.agent, "first");
      const nothing = (): never => {
        throw Object.create(null);
      };
      b.agent.provider = !has(h.id, "stream") ? { complete: async () => nothing() } : { stream: nothing };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("error: unprintable object", "error"), messages: [...FIRST, u("second"), a("error: unprintable object", "error")] },
  },
  {
    id: "handler-throws-revoked-proxy",
    since: "s04",
    input: "handler 抛一个撤销了的 Proxy（s05 起也不会被错标成 hook failed）",
    async run(h) {
      const boom: ToolLike = {
        spec: { name: "boom", description: "", input: {} },
        handler: () => {
          const { proxy, revoke } = Proxy.revocable({}, {});
          revoke();
          throw proxy;
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "boom", {})), text("done")], { tools: [boom] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: unprintable object"), a("done")] },
  },
  {
    id: "hook-throws-null-prototype",
    since: "s05",
    input: "beforeToolCall 抛一个没有原型的对象",
    async run(h) {
      const t = echoTool("a");
      const hooks: Hooks = {
        beforeToolCall: () => {
          throw Object.create(null);
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "a", { text: "x" })), text("done")], { tools: [t.tool], hooks });
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: hook failed: unprintable object"), a("done")], handlerCalls: [] },
  },

  // ── 第 2 类：provider 的事件不可信（s03 起，D26） ───────────
  ...(
    [
      ["stop-reason-outside-the-set", "message_end 的 stopReason 不在 StopReason 里（\"length\"）", [start, delta("ab"), end("length")], 'ab\nerror: invalid event from provider: {"type":"message_end","stopReason":"length"}'],
      ["message-end-without-stop-reason", "message_end 没带 stopReason", [start, delta("ab"), { type: "message_end" }], 'ab\nerror: invalid event from provider: {"type":"message_end"}'],
      ["event-null", "事件是 null", [start, null], "error: invalid event from provider: null"],
      ["event-string", "事件是一个字符串", [start, "message_end"], 'error: invalid event from provider: "message_end"'],
      ["text-delta-not-string", "text_delta 的 text 不是字符串", [start, { type: "text_delta", text: 42 }], 'error: invalid event from provider: {"type":"text_delta","text":42}'],
      ["event-unknown-type", "不认识的事件类型", [start, { type: "thinking_delta", text: "hmm" }], 'error: invalid event from provider: {"type":"thinking_delta","text":"hmm"}'],
    ] as [string, string, unknown[], string][]
  ).map(
    ([id, input, events, content]): Row => ({
      id,
      since: "s03",
      input,
      run: (h) => secondTurn(h, [events as Step[]]),
      expected: { reply: a(content, "error"), messages: [...FIRST, u("second"), a(content, "error")] },
    }),
  ),
  {
    id: "tool-call-without-call",
    since: "s04",
    input: "tool_call 事件没带 call（回答以出错收尾，它前面合法的调用也不执行）",
    async run(h) {
      const t = echoTool("a");
      const { messages } = await secondTurn(h, [[start, { type: "tool_call", call: call("c1", "a", { text: "x" }) }, { type: "tool_call" } as unknown as Step, end("toolUse")]], { tools: [t.tool] });
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a('error: invalid event from provider: {"type":"tool_call"}', "error")], handlerCalls: [] },
  },
  brokenForOneTurn("provider-without-stream", "s03", "provider 对象上没有 stream", "provider", {}, "error: provider.stream is not a function"),

  // ── 第 3 类：工具契约在运行时也算数（s04 起，D27） ───────────
  ...(
    [
      ["handler-returns-promise", "handler 回一个 Promise（照着 Pi 写成 async 的工具）", () => Promise.resolve("late"), 'error: tool "a" returned a Promise, expected a string'],
      ["handler-returns-rejecting-promise", "handler 回一个会 reject 的 Promise", () => Promise.reject(new Error("async failure")), 'error: tool "a" returned a Promise, expected a string'],
      ["handler-returns-number", "handler 回一个数字", () => 42, 'error: tool "a" returned 42, expected a string'],
      ["handler-returns-undefined", "handler 什么都不回", () => undefined, 'error: tool "a" returned undefined, expected a string'],
      ["handler-returns-object", "handler 回一个对象", () => ({ lines: 3 }), 'error: tool "a" returned {"lines":3}, expected a string'],
    ] as [string, string, () => unknown, string][]
  ).map(
    ([id, input, result, content]): Row => ({
      id,
      since: "s04",
      input,
      async run(h) {
        const tool: ToolLike = { spec: { name: "a", description: "", input: {} }, handler: () => result() as string };
        const b = h.agent({ tools: [tool], responses: [text("ok"), toolUse("", call("c1", "a", {})), text("done"), text("later")] });
        await h.mod.runOneTurn(b.agent, "first");
        await h.mod.runOneTurn(b.agent, "second");
        await h.mod.runOneTurn(b.agent, "third");
        await new Promise((resolve) => setImmediate(resolve));
        return { messages: b.all() };
      },
      // 第三轮照常：结果没有毒化历史（s06 起每轮都要给历史拍快照）
      expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", content), a("done"), u("third"), a("later")] },
    }),
  ),
  argsRow("args-nested-deep", "参数嵌了 10,000 层（合法的 JSON）", { path: nested(10_000) }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-bigint", "参数里有 BigInt（不是 JSON，日志行也写得出来）", { path: 10n }, 'error: invalid arguments for tool "read": argument "path" must be a string'),

  // ── 第 4 类：钩子出了岔子就按拦下处理（s05 起，D28） ─────────
  ...(
    [
      ["hook-returns-promise-of-block", "beforeToolCall 回一个 Promise（Pi 的钩子是 async 的），它 resolve 成 block", { beforeToolCall: () => Promise.resolve({ type: "block", reason: "no" }) }, 'error: hook failed: beforeToolCall returned a Promise, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-returns-undefined", "beforeToolCall 什么都不回（Pi 里这算放行）", { beforeToolCall: () => undefined }, 'error: hook failed: beforeToolCall returned undefined, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-block-without-reason", "beforeToolCall 回 block 却没有 reason", { beforeToolCall: () => ({ type: "block" }) }, 'error: hook failed: beforeToolCall returned {"type":"block"}, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-pi-shaped-block", "beforeToolCall 回 Pi 写法的 {block: true, reason}", { beforeToolCall: () => ({ block: true, reason: "no" }) }, 'error: hook failed: beforeToolCall returned {"block":true,"reason":"no"}, expected {type: "allow"} or {type: "block", reason}', []],
      ["after-hook-returns-undefined", "afterToolCall 什么都不回（handler 已经跑过，结果作废）", { afterToolCall: () => undefined }, "error: hook failed: afterToolCall returned undefined, expected a string", [{ text: "x" }]],
      ["after-hook-returns-promise", "afterToolCall 回一个 Promise", { afterToolCall: () => Promise.resolve("redacted") }, "error: hook failed: afterToolCall returned a Promise, expected a string", [{ text: "x" }]],
    ] as unknown as [string, string, Hooks, string, Record<string, string>[]][]
  ).map(hookRow),
  hookRow([
    "hook-rewrites-call-id",
    "beforeToolCall 把 call.id 改掉再放行（结果仍回答模型给的 id）",
    {
      beforeToolCall: (c) => {
        c.id = "forged";
        return { type: "allow" };
      },
    },
    "a:x",
    [{ text: "x" }],
  ]),

  // ── 第 5 类：provider 改了手上的输入（s02 起） ─────────────────
  {
    id: "provider-mutates-its-input",
    since: "s02",
    input: "provider 往收到的 messages 里塞消息、改工具说明、加参数",
    async run(h) {
      const seen: unknown[] = [];
      const answer = (input: { messages: Msg[]; tools?: ToolLike["spec"][] }): void => {
        seen.push(structuredClone(input));
        input.messages.push(u("INJECTED"));
        if (input.tools?.[0] !== undefined) Object.assign(input.tools[0], { description: "EDITED" }).input.extra = "x";
      };
      const b = h.agent({ tools: [echoTool("a").tool] });
      b.agent.provider =
        !has(h.id, "stream")
          ? { complete: async (input) => (answer(input), "ok") }
          : {
              async *stream(input) {
                answer(input);
                yield* text("ok") as never[];
              },
            };
      await h.mod.runOneTurn(b.agent, "first");
      await h.mod.runOneTurn(b.agent, "second");
      return { seen, specs: b.agent.registry?.getSpecs(), messages: b.all() };
    },
    expected: {
      seen: [
        { messages: [u("first")], tools: [{ name: "a", description: "a tool", input: { text: "text" } }] },
        { messages: [u("first"), { role: "assistant", content: "ok" }, u("second")], tools: [{ name: "a", description: "a tool", input: { text: "text" } }] },
      ].map((x) => expect.objectContaining(x)),
      specs: [{ name: "a", description: "a tool", input: { text: "text" } }],
      messages: [...FIRST, u("second"), a("ok")],
    },
  },

  // ── 第 6 类：按名字查东西摸不到原型（s04 起的工具，s06 起的模型） ──
  {
    id: "model-named-constructor",
    since: "s06",
    input: 'state.model 是 "constructor"（Object.prototype 上有同名成员）',
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("from the default provider")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.providers = {};
      b.agent.state.model = "constructor";
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply };
    },
    expected: { reply: a("from the default provider") },
  },
  {
    id: "demo-read-prototype-path",
    since: "s04",
    input: '演示的 read 工具读路径 "constructor"',
    async run(h) {
      const read = h.mod.createDemoTools().find((t) => t.spec.name === "read");
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "read", { path: "constructor" })), text("done")], { tools: read === undefined ? [] : [read] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: no such file: constructor"), a("done")] },
  },
];
