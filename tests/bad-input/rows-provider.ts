// 坏输入表：provider 交来的东西——它抛出的、它的事件流、它改了手上的输入、按模型名挑它、它一直不回话。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { expect } from "vitest";
import { echoTool, gateFirstRequest } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { Msg, ProviderLike, ToolLike } from "../../tooling/lesson.ts";
import { type Step, assistant as a, call, delta, end, start, text, toolResult as r, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST, brokenForOneTurn, secondTurn, secondTurnWith } from "./harness.ts";

export const ROWS_PROVIDER: Row[] = [
  // ── 抛出来的东西连文字都转不出来（R4 第 1 类，s01 起） ──
  {
    id: "provider-throws-null-prototype",
    since: "s01",
    input: "provider 抛一个没有原型的对象（String() 会再抛一次）",
    run: (h) => {
      const nothing = (): never => {
        throw Object.create(null);
      };
      return secondTurnWith(h, !has(h.id, "stream") ? { complete: async () => nothing() } : { stream: nothing });
    },
    expected: { reply: a("error: unprintable object", "error"), messages: [...FIRST, u("second"), a("error: unprintable object", "error")] },
  },

  // ── 事件流：先后乱了、收尾之后还有、中途断掉（s03 起） ──
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
    id: "event-is-a-promise",
    since: "s03",
    input: "事件流交出来的一个事件是 Promise（provider 忘了 await；for await 不会替它等）",
    run(h) {
      const events = [{ type: "message_start" }, Promise.resolve({ type: "text_delta", text: "late" })];
      const stream = (): AsyncIterable<unknown> => ({
        [Symbol.asyncIterator]: () => ({ next: async () => (events.length > 0 ? { done: false, value: events.shift() } : { done: true, value: undefined }) }),
      });
      return secondTurnWith(h, { stream } as unknown as ProviderLike);
    },
    expected: { reply: a("error: invalid event from provider: a Promise", "error"), messages: [...FIRST, u("second"), a("error: invalid event from provider: a Promise", "error")] },
  },
  {
    id: "stream-throws-synchronously",
    since: "s03",
    input: "provider.stream 还没交出事件流就同步抛错",
    run: (h) =>
      secondTurnWith(h, {
        stream: () => {
          throw new Error("rate limited");
        },
      }),
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

  // ── 坏事件（R4 第 2 类，s03 起，D26） ──
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

  // ── provider 改了手上的输入（R4 第 5 类，s02 起） ──
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

  // ── 按模型名挑 provider，摸不到原型（R4 第 6 类，s06 起） ──
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

  // ── 一直不回话的 provider（R4 第 11 类，s03 起，D35） ──
  {
    id: "provider-never-answers",
    since: "s03",
    input: "provider 一直不交出第一个事件（core 没有取消，只能等；它一回话就照常收尾）",
    async run(h) {
      const b = h.agent({ responses: [text("finally")] });
      const { provider, release } = gateFirstRequest(b.agent.provider);
      b.agent.provider = provider;
      let done = false;
      const first = h.mod.runOneTurn(b.agent, "hang").then((reply) => ((done = true), reply));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const pending = !done;
      release();
      return { pending, reply: await first, messages: b.all() };
    },
    expected: { pending: true, reply: a("finally"), messages: [u("hang"), a("finally")] },
  },
  {
    id: "provider-never-answers-meanwhile",
    since: "oneTurn",
    input: "provider 一直不交出第一个事件，等的时候同一个 agent 再来一轮（被拒绝，什么都不存）",
    async run(h) {
      const b = h.agent({ responses: [text("finally")] });
      const { provider, release } = gateFirstRequest(b.agent.provider);
      b.agent.provider = provider;
      const first = h.mod.runOneTurn(b.agent, "hang");
      const meanwhile = await h.mod.runOneTurn(b.agent, "meanwhile");
      release();
      return { meanwhile, reply: await first, messages: b.all() };
    },
    expected: {
      meanwhile: a("error: agent is already processing a prompt", "error"),
      reply: a("finally"),
      messages: [u("hang"), a("finally")],
    },
  },
];
