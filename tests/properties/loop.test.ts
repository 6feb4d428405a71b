// 性质测试（fast-check），R4 / R5 的循环性质（任意 provider 剧本）和会话树的性质。
// 不是挑几个例子，而是让 fast-check 随便编输入，看循环守不守得住它的承诺；失败时它把反例缩到最小再打印（Counterexample: …，以及 seed/path）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { makeAgent, pushMessage } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { Call, Event, Hooks, Input, LessonModule, Msg, ProviderLike, RuntimeEventLike, ToolLike } from "../../tooling/lesson.ts";
import { text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { params, str } from "./common.ts";

// ── 随机的 provider 剧本 ─────────────────────────────────
/** 课里登记的工具：echo(text) 回显；pair(a, b)；noargs() 不要参数；boom() 一定抛错。 */
const TOOLS: Record<string, { params: string[]; run: (input: Record<string, string>) => string }> = {
  echo: { params: ["text"], run: (i) => `echo:${i.text}` },
  pair: { params: ["a", "b"], run: (i) => `pair:${i.a}+${i.b}` },
  noargs: { params: [], run: () => "noargs:ok" },
  boom: {
    params: [],
    run: () => {
      throw new Error("handler exploded");
    },
  },
};
const UNKNOWN = ["nope", "ghost", "read"];

/** 一次调用，外加按剧本（不看课的代码）算出的预期：成功时的结果，或「这是个错误结果」及其开头。 */
type GenCall = { name: string; input: unknown; expect: { ok: string } | { errorPrefix: string } };

const notString = fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(str, { maxLength: 2 }), fc.constant({ nested: "x" }));

const callArb: fc.Arbitrary<GenCall> = fc.oneof(
  // 合法调用
  str.map((text) => ({ name: "echo", input: { text }, expect: { ok: `echo:${text}` } })),
  fc.tuple(str, str).map(([a, b]) => ({ name: "pair", input: { a, b }, expect: { ok: `pair:${a}+${b}` } })),
  fc.constant({ name: "noargs", input: {}, expect: { ok: "noargs:ok" } }),
  // handler 抛错
  fc.constant({ name: "boom", input: {}, expect: { errorPrefix: "error: handler exploded" } }),
  // 未知工具
  fc.constantFrom(...UNKNOWN).map((name) => ({ name, input: {}, expect: { errorPrefix: `error: unknown tool "${name}"` } })),
  // 参数：缺、多、不是字符串、根本不是对象
  fc.constantFrom("echo", "pair").map((name) => ({ name, input: {}, expect: { errorPrefix: `error: invalid arguments for tool "${name}": ` } })),
  fc.tuple(str, fc.constantFrom("extra", "path", "__proto__x")).map(([text, key]) => ({
    name: "echo",
    input: { text, [key]: "y" },
    expect: { errorPrefix: 'error: invalid arguments for tool "echo": ' },
  })),
  notString.map((bad) => ({ name: "echo", input: { text: bad }, expect: { errorPrefix: 'error: invalid arguments for tool "echo": ' } })),
  fc.oneof(fc.constant(null), fc.constant("text"), fc.constant([]), fc.integer()).map((bad) => ({
    name: "noargs",
    input: bad,
    expect: { errorPrefix: 'error: invalid arguments for tool "noargs": ' },
  })),
);

type Item = { kind: "text"; text: string } | { kind: "start" } | { kind: "call"; call: GenCall };
type End =
  | { kind: "end"; stopReason: "stop" | "toolUse" | "error" }
  | { kind: "throw"; message: string }
  /** 流不发 message_end 就结束。 */
  | { kind: "none" }
  /** provider.stream 本身同步抛错，连生成器都没拿到。 */
  | { kind: "syncThrow"; message: string };
type After = { kind: "text"; text: string } | { kind: "call"; call: GenCall } | { kind: "end" } | { kind: "throw" };
type Response = { items: Item[]; end: End; after: After[] };

const itemArb: fc.Arbitrary<Item> = fc.oneof(
  { weight: 3, arbitrary: str.map((text) => ({ kind: "text" as const, text })) },
  { weight: 1, arbitrary: fc.constant({ kind: "start" as const }) },
  { weight: 3, arbitrary: callArb.map((call) => ({ kind: "call" as const, call })) },
);
const endArb: fc.Arbitrary<End> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("stop", "toolUse", "error").map((stopReason) => ({ kind: "end" as const, stopReason })) },
  { weight: 1, arbitrary: fc.constantFrom("connection reset", "").map((message) => ({ kind: "throw" as const, message })) },
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "syncThrow" as const, message: "rate limited" }) },
);
const afterArb: fc.Arbitrary<After> = fc.oneof(
  str.map((text) => ({ kind: "text" as const, text })),
  callArb.map((call) => ({ kind: "call" as const, call })),
  fc.constant({ kind: "end" as const }),
  fc.constant({ kind: "throw" as const }),
);
const responseArb: fc.Arbitrary<Response> = fc.record({
  items: fc.array(itemArb, { maxLength: 5 }),
  end: endArb,
  after: fc.array(afterArb, { maxLength: 2 }),
});

type HookPlan = { block: string[]; beforeThrows: string[]; afterThrows: string[]; suffix: boolean };
const hookArb: fc.Arbitrary<HookPlan> = fc.record({
  block: fc.subarray(Object.keys(TOOLS), { maxLength: 2 }),
  beforeThrows: fc.subarray(Object.keys(TOOLS), { maxLength: 1 }),
  afterThrows: fc.subarray(Object.keys(TOOLS), { maxLength: 1 }),
  suffix: fc.boolean(),
});

/** maxTurns 为 undefined 时走 runOneTurn（默认上限 DEFAULT_MAX_TURNS）。 */
type Plan = { responses: Response[]; maxTurns: number | undefined; hooks: HookPlan };
const planArb: fc.Arbitrary<Plan> = fc.record({
  responses: fc.array(responseArb, { maxLength: 7 }),
  maxTurns: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 4 }),
  hooks: hookArb,
});

/** 剧本用完之后 provider 的回答：一句话，stop。 */
const FALLBACK: Response = { items: [{ kind: "text", text: "fallback" }], end: { kind: "end", stopReason: "stop" }, after: [] };

/** 调用 id 全局唯一：第 k 次回答里第 j 个事件的调用叫 r{k}.{j}（message_end 之后的叫 r{k}.after{j}）。 */
const callId = (k: number, j: number | string): string => `r${k}.${j}`;

function eventsOf(k: number, r: Response): (Event | { type: "throw"; message: string })[] {
  const out: (Event | { type: "throw"; message: string })[] = r.items.map((item, j) =>
    item.kind === "text"
      ? { type: "text_delta", text: item.text }
      : item.kind === "start"
        ? { type: "message_start" }
        : { type: "tool_call", call: { id: callId(k, j), name: item.call.name, input: item.call.input as Record<string, unknown> } },
  );
  if (r.end.kind === "throw") out.push({ type: "throw", message: r.end.message });
  if (r.end.kind !== "end") return out;
  out.push({ type: "message_end", stopReason: r.end.stopReason });
  for (const [j, a] of r.after.entries()) {
    if (a.kind === "text") out.push({ type: "text_delta", text: a.text });
    else if (a.kind === "call") out.push({ type: "tool_call", call: { id: callId(k, `after${j}`), name: a.call.name, input: a.call.input as Record<string, unknown> } });
    else if (a.kind === "end") out.push({ type: "message_end", stopReason: "stop" });
    else out.push({ type: "throw", message: "read past message_end" });
  }
  return out;
}

function planProvider(plan: Plan): { provider: ProviderLike; inputs: Input[] } {
  const inputs: Input[] = [];
  return {
    inputs,
    provider: {
      stream(input: Input): AsyncGenerator<Event> {
        const k = inputs.length;
        inputs.push(structuredClone(input));
        const r = plan.responses[k] ?? FALLBACK;
        if (r.end.kind === "syncThrow") throw new Error(r.end.message);
        const events = eventsOf(k, r);
        return (async function* () {
          for (const e of events) {
            if (e.type === "throw") throw new Error(e.message);
            yield e;
          }
        })();
      },
    },
  };
}

function planTools(): ToolLike[] {
  return Object.entries(TOOLS).map(([name, t]) => ({
    spec: { name, description: name, input: Object.fromEntries(t.params.map((p) => [p, p])) },
    handler: t.run,
  }));
}

function planHooks(h: HookPlan): Hooks {
  return {
    beforeToolCall: (call: Call) => {
      if (h.beforeThrows.includes(call.name)) throw new Error("before hook exploded");
      return h.block.includes(call.name) ? { type: "block", reason: `no ${call.name}` } : { type: "allow" };
    },
    afterToolCall: (call: Call, result: string) => {
      if (h.afterThrows.includes(call.name)) throw new Error("after hook exploded");
      return h.suffix ? `${result} [checked]` : result;
    },
  };
}

// ── 预期：只从剧本算，不看课的代码（D4、D6、D16、D18、D19） ─────
type Expected = {
  messages: { role: string; content: string | { errorPrefix: string }; stopReason?: string; toolCallId?: string }[];
  /** 第 k 次请求发出时，历史里已有几条消息。 */
  before: number[];
};

function expectedRun(plan: Plan, lesson: string, userInput: string, maxTurns: number): Expected {
  const hooksOn = has(lesson, "hooks");
  const messages: Expected["messages"] = [{ role: "user", content: userInput }];
  const before: number[] = [];
  for (let k = 0; k < maxTurns; k++) {
    before.push(messages.length);
    const r = plan.responses[k] ?? FALLBACK;
    const text = r.items.flatMap((i) => (i.kind === "text" ? [i.text] : [])).join("");
    const failed = (why: string): string => `${text}${text !== "" ? "\n" : ""}error: ${why}`;
    if (r.end.kind === "syncThrow") {
      messages.push({ role: "assistant", content: `error: ${r.end.message}`, stopReason: "error" });
      return { messages, before };
    }
    if (r.end.kind === "throw") {
      messages.push({ role: "assistant", content: failed(r.end.message), stopReason: "error" });
      return { messages, before };
    }
    if (r.end.kind === "none") {
      messages.push({ role: "assistant", content: failed("stream ended without message_end"), stopReason: "error" });
      return { messages, before };
    }
    messages.push({ role: "assistant", content: text, stopReason: r.end.stopReason });
    // D4/D19：只有以 toolUse 收尾、且 message_end 之前有调用的回答，它的调用才执行
    const calls = r.items.flatMap((item, j) => (item.kind === "call" ? [{ id: callId(k, j), call: item.call }] : []));
    if (r.end.stopReason !== "toolUse" || calls.length === 0) return { messages, before };
    for (const { id, call } of calls) messages.push({ role: "toolResult", toolCallId: id, content: expectedResult(call, hooksOn ? plan.hooks : undefined) });
  }
  messages.push({ role: "assistant", content: "max turns reached", stopReason: "stop" });
  return { messages, before };
}

function expectedResult(call: GenCall, h: HookPlan | undefined): string | { errorPrefix: string } {
  if (h === undefined) return "ok" in call.expect ? call.expect.ok : call.expect;
  if (h.beforeThrows.includes(call.name)) return { errorPrefix: "error: hook failed: before hook exploded" };
  if (h.block.includes(call.name)) return { errorPrefix: `error: blocked: no ${call.name}` };
  if (h.afterThrows.includes(call.name)) return { errorPrefix: "error: hook failed: after hook exploded" };
  if ("ok" in call.expect) return h.suffix ? `${call.expect.ok} [checked]` : call.expect.ok;
  return call.expect;
}

const STOP_REASONS = ["stop", "toolUse", "error"];

/** 把实际的消息变成能和预期逐条比的样子：预期是「错误前缀」的地方，只比前缀。 */
function comparable(actual: Msg[], expected: Expected["messages"]): unknown[] {
  return actual.map((m, i) => {
    const e = expected[i];
    const out: Record<string, unknown> = { role: m.role, content: m.content };
    if (m.stopReason !== undefined) out.stopReason = m.stopReason;
    if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
    if (e !== undefined && typeof e.content !== "string" && m.content.startsWith(e.content.errorPrefix)) out.content = e.content;
    return out;
  });
}

// ── s04 起：循环的性质 ───────────────────────────────────
const providerForm = (m: Msg): Record<string, string> =>
  m.role === "toolResult" ? { role: m.role, toolCallId: m.toolCallId ?? "", content: m.content } : { role: m.role, content: m.content };

type LoopRun = { actual: Msg[]; reply: Msg; inputs: Input[]; events: RuntimeEventLike[]; expected: Expected; maxTurns: number };

async function runPlan(id: string, mod: LessonModule, plan: Plan): Promise<LoopRun> {
  const { provider, inputs } = planProvider(plan);
  const { agent, messages } = makeAgent(id, mod, { provider, tools: planTools(), hooks: planHooks(plan.hooks) });
  const events: RuntimeEventLike[] = [];
  agent.runtime?.use((api) => {
    api.on("message", (e) => void events.push(e));
    api.on("done", (e) => void events.push(e));
  });
  const maxTurns = plan.maxTurns ?? mod.DEFAULT_MAX_TURNS;
  let reply: Msg;
  // 不抛错：runOneTurn / runEventedToolLoop 若拒绝，await 在这里抛出，性质即失败
  if (plan.maxTurns === undefined) reply = await mod.runOneTurn(agent, "go");
  else {
    pushMessage(agent, { role: "user", content: "go" });
    reply = await mod.runEventedToolLoop(agent, plan.maxTurns);
  }
  return { actual: messages(), reply, inputs, events, expected: expectedRun(plan, id, "go", maxTurns), maxTurns };
}

const toolResultIds = (ms: { role: string; toolCallId?: string }[]): (string | undefined)[] =>
  ms.filter((m) => m.role === "toolResult").map((m) => m.toolCallId);

forLessonsFrom("toolLoop", (id, load) => {
  it(
    "R4 / R5：任意 provider 行为：不抛错（R4）；请求数 ≤ maxTurns（R5）；执行的调用（D4/D19）每个恰好一条带其 toolCallId 的结果，没执行的一条都没有；" +
      "以合法 stopReason 的助手消息收尾；provider 每次看到的正是当时已存的历史" +
      (has(id, "extensions") ? "；每条存下的消息一个 message 事件，最后一个 done（D11）" : ""),
    async () => {
      const mod = await load();
      await fc.assert(
        fc.asyncProperty(planArb, async (plan) => {
          const { actual, reply, inputs, events, expected, maxTurns } = await runPlan(id, mod, plan);
          fastExpect(inputs.length, "provider calls").toBeLessThanOrEqual(maxTurns);
          fastExpect(inputs.length, "provider calls").toBe(expected.before.length);
          fastExpect(toolResultIds(actual), "toolCallIds of the stored tool results, in order").toEqual(toolResultIds(expected.messages));
          fastExpect(reply.role).toBe("assistant");
          fastExpect(STOP_REASONS).toContain(reply.stopReason);
          fastExpect(actual.at(-1), "the returned message is the last one stored").toEqual(reply);
          fastExpect(actual.map((m) => [m.role, m.stopReason]), "roles and stop reasons").toEqual(expected.messages.map((m) => [m.role, m.stopReason]));
          for (const [k, count] of expected.before.entries()) {
            fastExpect(inputs[k].messages, `request ${k} sees the history stored so far`).toEqual(actual.slice(0, count).map(providerForm));
          }
          if (has(id, "extensions")) {
            fastExpect(events, "runtime events").toEqual([...actual.slice(1).map((m) => ({ type: "message", content: m.content })), { type: "done" }]);
          }
        }),
        params,
      );
    },
  );

  it("R4：任意 provider 行为：存下的每条消息的内容都和按剧本算出的一样（D4 文字、D6 出错时「已收到的文字 + 一行 error」、D16 钩子、D18 工具错误）", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        const { actual, expected } = await runPlan(id, mod, plan);
        fastExpect(comparable(actual, expected.messages), "stored messages").toEqual(expected.messages);
      }),
      params,
    );
  });
});

// ── s07 起：会话树的性质 ─────────────────────────────────
type TreeOp = { op: "append"; msg: Msg } | { op: "moveTo"; pick: number } | { op: "moveToUnknown"; id: string };
const msgArb: fc.Arbitrary<Msg> = fc.oneof(
  str.map((content) => ({ role: "user" as const, content })),
  fc.tuple(str, fc.constantFrom("stop", "toolUse", "error")).map(([content, stopReason]) => ({ role: "assistant" as const, content, stopReason })),
  fc.tuple(str, str).map(([content, toolCallId]) => ({ role: "toolResult" as const, content, toolCallId })),
);
const treeOpArb: fc.Arbitrary<TreeOp> = fc.oneof(
  { weight: 4, arbitrary: msgArb.map((msg) => ({ op: "append" as const, msg })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ op: "moveTo" as const, pick })) },
  { weight: 1, arbitrary: fc.constantFrom("nope", "e0", "", "E1", "e1 ", "__proto__", "toString").map((id) => ({ op: "moveToUnknown" as const, id })) },
);

forLessonsFrom("sessionTree", (_id, load) => {
  it("任意 append / moveTo 序列：currentPath 总是从根到叶子的一条链；一个节点都不丢；id 不重复；moveTo 未知 id 报错且树不变", async () => {
    const mod = await load();
    await fc.assert(
      fc.property(fc.array(treeOpArb, { maxLength: 40 }), (ops) => {
        const tree = new mod.SessionTree();
        // 模型：节点按追加顺序，记下父节点；叶子
        const model: { id: string; parentId: string | null; msg: Msg }[] = [];
        let leaf: string | null = null;
        for (const op of ops) {
          if (op.op === "append") {
            const entry = tree.append(op.msg);
            fastExpect(entry.parentId, "append hangs the entry under the current leaf").toBe(leaf);
            fastExpect(model.some((m) => m.id === entry.id), `id ${entry.id} is new`).toBe(false);
            model.push({ id: entry.id, parentId: entry.parentId, msg: op.msg });
            leaf = entry.id;
          } else if (op.op === "moveTo") {
            if (model.length === 0) continue;
            const target = model[op.pick % model.length].id;
            tree.moveTo(target);
            leaf = target;
          } else {
            if (model.some((m) => m.id === op.id)) continue;
            const before = JSON.stringify([tree.allEntries(), tree.currentPath()]);
            fastExpect(() => tree.moveTo(op.id), `moveTo(${JSON.stringify(op.id)})`).toThrow();
            fastExpect(JSON.stringify([tree.allEntries(), tree.currentPath()]), "a failed moveTo leaves the tree as it was").toBe(before);
          }
          // 一个都不丢：allEntries 就是追加过的全部，按顺序
          fastExpect(tree.allEntries().map((e) => [e.id, e.parentId])).toEqual(model.map((m) => [m.id, m.parentId]));
          // currentPath = 从叶子沿父节点走到根，再倒过来；第一个是根，最后一个是叶子
          const chain: Msg[] = [];
          for (let at = leaf; at !== null; ) {
            const node = model.find((m) => m.id === at);
            if (node === undefined) throw new Error(`model lost ${at}`);
            chain.unshift(node.msg);
            at = node.parentId;
          }
          fastExpect(tree.currentPath()).toEqual(chain);
        }
      }),
      params,
    );
  });
});
