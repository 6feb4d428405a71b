// 性质测试（fast-check）：不是挑几个例子，而是让 fast-check 随便编 provider 的行为，看循环守不守得住它的承诺。
// 失败时 fast-check 会把反例缩到最小再打印（Counterexample: …，以及 seed/path）。
// 默认用固定的 seed，npm test 每次跑的是同一批用例；FC_SEED=<数字> 复现某次失败，FC_SEED=random 每次换一批。
// 运行次数：FC_NUM_RUNS（默认 150），整套性质测试在两三秒内跑完。
import fc from "fast-check";
import { expect, it } from "vitest";
import type { Call, Event, ExtensionApiLike, Hooks, Input, LessonModule, Msg, ProviderLike, Runtime, RuntimeEventLike, TestAgent, ToolLike } from "../tooling/lesson.ts";
import { type Step, text, toolUse } from "../tooling/script.ts";
import { echoTool, makeAgent, pushMessage, scriptedProvider } from "../tooling/agent.ts";
import { forLessonsFrom } from "./support/for-lessons.ts";
import { type Feature, has } from "../tooling/features.ts";
import { type Hostile, PROTOTYPE_KEYS, RETURNED, anyData, expectSoundHistory, makeQuietly, nameArb, returnedArb, settle, thrownArb } from "./support/hostile.ts";

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 150);
const SEED = process.env.FC_SEED === "random" ? undefined : Number(process.env.FC_SEED ?? 20240607);
const params = { numRuns: NUM_RUNS, seed: SEED };

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

/** 短字符串，空串单独加权：空的 text_delta、空参数这些边界要常出现。 */
const str = fc.oneof(fc.constant(""), fc.string({ maxLength: 8 }));
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
          expect(inputs.length, "provider calls").toBeLessThanOrEqual(maxTurns);
          expect(inputs.length, "provider calls").toBe(expected.before.length);
          expect(toolResultIds(actual), "toolCallIds of the stored tool results, in order").toEqual(toolResultIds(expected.messages));
          expect(reply.role).toBe("assistant");
          expect(STOP_REASONS).toContain(reply.stopReason);
          expect(actual.at(-1), "the returned message is the last one stored").toEqual(reply);
          expect(actual.map((m) => [m.role, m.stopReason]), "roles and stop reasons").toEqual(expected.messages.map((m) => [m.role, m.stopReason]));
          for (const [k, count] of expected.before.entries()) {
            expect(inputs[k].messages, `request ${k} sees the history stored so far`).toEqual(actual.slice(0, count).map(providerForm));
          }
          if (has(id, "extensions")) {
            expect(events, "runtime events").toEqual([...actual.slice(1).map((m) => ({ type: "message", content: m.content })), { type: "done" }]);
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
        expect(comparable(actual, expected.messages), "stored messages").toEqual(expected.messages);
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
            expect(entry.parentId, "append hangs the entry under the current leaf").toBe(leaf);
            expect(model.some((m) => m.id === entry.id), `id ${entry.id} is new`).toBe(false);
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
            expect(() => tree.moveTo(op.id), `moveTo(${JSON.stringify(op.id)})`).toThrow();
            expect(JSON.stringify([tree.allEntries(), tree.currentPath()]), "a failed moveTo leaves the tree as it was").toBe(before);
          }
          // 一个都不丢：allEntries 就是追加过的全部，按顺序
          expect(tree.allEntries().map((e) => [e.id, e.parentId])).toEqual(model.map((m) => [m.id, m.parentId]));
          // currentPath = 从叶子沿父节点走到根，再倒过来；第一个是根，最后一个是叶子
          const chain: Msg[] = [];
          for (let at = leaf; at !== null; ) {
            const node = model.find((m) => m.id === at);
            if (node === undefined) throw new Error(`model lost ${at}`);
            chain.unshift(node.msg);
            at = node.parentId;
          }
          expect(tree.currentPath()).toEqual(chain);
        }
      }),
      params,
    );
  });
});

// ══ 每道边界都守得住（issue 13）════════════════════════════
// 下面每个性质生成一整类不可信的输入，对引入那道边界的课及之后每一课都跑。共同的断言：runOneTurn 一定 resolve；
// 存下的每条助手消息 stopReason 合法；每个执行了的调用恰好一条带模型给的 id 的结果；历史不交错、能被 structuredClone；
// 之后再跑一轮普通的对话照样成功（expectSoundHistory + ordinaryTurnAfter）。
const BOUNDARY_RUNS = { numRuns: Math.max(20, Math.round(NUM_RUNS / 3)), seed: SEED };

/** 一个只说 "ok" 的 provider：s01–s02 用 complete，之后用 stream。 */
function okProvider(id: string, reply = "ok"): ProviderLike {
  if (!has(id, "stream")) return { complete: async () => reply };
  return {
    async *stream() {
      yield { type: "message_start" };
      yield { type: "text_delta", text: reply };
      yield { type: "message_end", stopReason: "stop" };
    },
  };
}

/** 换上正常的零件，再跑一轮普通对话：必须成功，并且恰好在历史末尾多出这一问一答。 */
async function ordinaryTurnAfter(id: string, mod: LessonModule, agent: TestAgent, messages: () => Msg[]): Promise<void> {
  const lines: string[] = [];
  agent.provider = okProvider(id, "after ok");
  agent.output = { log: (line) => void lines.push(line) };
  if (has(id, "resources")) agent.loader = new mod.ResourceLoader([]);
  if (has(id, "modes")) agent.mode = new mod.PrintMode(agent.output);
  const before = messages().length;
  const reply = await mod.runOneTurn(agent, "after");
  expect(reply, "the ordinary turn afterwards").toEqual({ role: "assistant", content: "after ok", stopReason: "stop" });
  expect(messages().slice(before), "the ordinary turn stored exactly its question and answer").toEqual([{ role: "user", content: "after" }, reply]);
  expect(lines.join("\n")).toContain("after ok");
  expectSoundHistory(id, messages());
}

/** 收集这一段时间里没人处理的 reject；core 不等的 Promise 必须自己接住失败。 */
function watchUnhandled(): { stop: () => unknown[] } {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => void seen.push(reason);
  process.on("unhandledRejection", listener);
  return {
    stop: () => {
      process.off("unhandledRejection", listener);
      return seen;
    },
  };
}

// ── 第 1 类：抛出任何值都能被描述（s01 起，每道边界） ──────────
type Boundary = "provider" | "provider mid-stream" | "output" | "handler" | "beforeToolCall" | "afterToolCall" | "loader" | "extension" | "listener" | "command" | "render";
const boundariesOf = (id: string): Boundary[] => {
  // 每道边界随哪个零件出现；没写零件的从第一课起就有
  const all: [Boundary, Feature | undefined][] = [
    ["provider", undefined],
    ["output", undefined],
    ["provider mid-stream", "stream"],
    ["handler", "toolLoop"],
    ["beforeToolCall", "hooks"],
    ["afterToolCall", "hooks"],
    ["loader", "resources"],
    ["extension", "extensions"],
    ["listener", "extensions"],
    ["command", "extensions"],
    ["render", "modes"],
  ];
  return all.filter(([, feature]) => feature === undefined || has(id, feature)).map(([b]) => b);
};

forLessonsFrom("s01", (id, load) => {
  it("R4 第 1 类：describeError（s03 起还有 describeValue）对任何值都回一段文字，从不抛错", async () => {
    const mod = await load();
    await fc.assert(
      fc.property(returnedArb, (h) => {
        expect(typeof mod.describeError(makeQuietly(h))).toBe("string");
        if (has(id, "stream")) expect(typeof mod.describeValue(makeQuietly(h))).toBe("string");
      }),
      params,
    );
  });

  it(`R4 第 1 类：在任何一道边界（${boundariesOf(id).join("、")}）抛出任何值，这一轮都照常结束，错误写成文字，之后照常`, async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...boundariesOf(id)), thrownArb, async (boundary, h) => {
        const throwIt = (): never => {
          throw h.make();
        };
        const handlerCalls: string[] = [];
        const tool: ToolLike = {
          spec: { name: "a", description: "a", input: { text: "text" } },
          handler: (input) => {
            handlerCalls.push(input.text);
            return boundary === "handler" ? throwIt() : `a:${input.text}`;
          },
        };
        let provider: ProviderLike;
        if (boundary === "provider") provider = !has(id, "stream") ? { complete: async () => throwIt() } : { stream: () => throwIt() };
        else if (boundary === "provider mid-stream") {
          provider = {
            async *stream() {
              yield { type: "message_start" };
              yield { type: "text_delta", text: "half" };
              throwIt();
            },
          };
        } else {
          provider = scriptedProvider(id, (_input, k) => (has(id, "toolLoop") && k === 0 ? toolUse("", { id: "c1", name: "a", input: { text: "x" } }) : text("done"))).provider;
        }
        const hooks: Hooks = {
          beforeToolCall: () => (boundary === "beforeToolCall" ? throwIt() : { type: "allow" }),
          afterToolCall: (_c, r) => (boundary === "afterToolCall" ? throwIt() : r),
        };
        const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "tools") ? [tool] : [], hooks });
        if (boundary === "output") {
          agent.output = { log: throwIt };
          if (has(id, "modes")) agent.mode = new mod.PrintMode(agent.output);
        }
        if (boundary === "render") agent.mode = { render: throwIt };
        if (boundary === "loader") agent.loader = { load: throwIt };
        let useThrew = false;
        try {
          if (boundary === "extension") {
            agent.runtime?.use(function boom(api) {
              api.registerTool(echoTool("x").tool);
              throwIt();
            });
          }
          if (boundary === "listener") agent.runtime?.use((api) => api.on("message", throwIt));
          if (boundary === "command") agent.runtime?.use((api) => api.registerCommand({ name: "c", run: throwIt }));
        } catch {
          useThrew = true;
        }
        expect(useThrew, "use() never throws").toBe(false);

        const reply = await mod.runOneTurn(agent, "go");
        expect(messages().at(-1), "the reply is stored last").toEqual(reply);
        const results = messages().filter((m) => m.role === "toolResult");
        const errors = agent.runtime?.errors ?? [];
        for (const e of errors) expect(e).toMatch(/^error: /);
        switch (boundary) {
          case "provider":
            expect(reply.stopReason).toBe("error");
            expect(reply.content).toMatch(/^error: /);
            break;
          case "provider mid-stream":
            expect(reply).toMatchObject({ stopReason: "error", content: expect.stringMatching(/^half\nerror: /) });
            break;
          case "handler":
            expect(results).toHaveLength(1);
            expect(results[0].content).toMatch(/^error: /);
            expect(results[0].content, "a handler's error is not labelled as a hook failure").not.toMatch(/^error: hook failed/);
            break;
          case "beforeToolCall":
            expect(results.map((m) => m.content.startsWith("error: hook failed: "))).toEqual([true]);
            expect(handlerCalls, "a failing hook never lets the call run").toEqual([]);
            break;
          case "afterToolCall":
            expect(results.map((m) => m.content.startsWith("error: hook failed: "))).toEqual([true]);
            expect(handlerCalls).toEqual(["x"]);
            break;
          case "loader":
            expect(reply).toMatchObject({ stopReason: "error", content: expect.stringMatching(/^error: could not start the turn: /) });
            break;
          case "extension":
            expect(errors.map((e) => e.startsWith('error: extension "boom" failed to load: '))).toEqual([true]);
            expect(agent.registry?.getSpecs().map((s) => s.name), "nothing of the failed extension is installed").not.toContain("x");
            break;
          case "listener":
            expect(errors.length).toBeGreaterThan(0);
            for (const e of errors) expect(e).toMatch(/^error: handler for "message" failed: /);
            break;
          case "command":
            expect(agent.runtime?.runCommand("c")).toMatch(/^error: command "c" failed: /);
            break;
          case "render":
            expect(errors.filter((e) => e.startsWith("error: mode failed to render: "))).toHaveLength(1);
            break;
          case "output":
            break;
        }
        if (!["provider", "provider mid-stream", "loader"].includes(boundary)) expect(reply).toMatchObject({ stopReason: "stop" });
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 2 类：provider 的事件流是不可信的输入（s03 起） ─────────
// 规则（D26）：每个事件先校验形状。不是四种形状之一的（不认识的 type、text 不是字符串、stopReason 不在这一课的
// StopReason 里、tool_call 缺 id/name、null、字符串……），这条回答就以出错收尾：已收到的文字 + 一行
// "error: invalid event from provider: <收到的东西>"；读一下就抛错的事件同样以出错收尾。顺序不对的合法事件照旧容忍。
type GenEvent = { label: string; make: () => unknown; kind: "valid" | "invalid" | "throws"; text?: string; stop?: string; call?: { id: string; text: string } };
const genEvent = (label: string, make: () => unknown, kind: GenEvent["kind"], extra: Partial<GenEvent> = {}): GenEvent =>
  ({ label, make, kind, ...extra, [fc.toStringMethod]: () => `${kind} ${label}` }) as GenEvent;

function eventArb(id: string): fc.Arbitrary<GenEvent> {
  const legal = has(id, "toolLoop") ? ["stop", "toolUse", "error"] : ["stop", "error"];
  const types = has(id, "toolLoop") ? ["message_start", "text_delta", "message_end", "tool_call"] : ["message_start", "text_delta", "message_end"];
  const nullProtoOf = (o: Record<string, unknown>): object => Object.assign(Object.create(null) as object, o);
  const notString = anyData.filter((h) => typeof makeQuietly(h) !== "string");
  const valid = fc.oneof(
    fc.constant(genEvent("message_start", () => ({ type: "message_start" }), "valid")),
    str.map((t) => genEvent(`text_delta ${JSON.stringify(t)}`, () => ({ type: "text_delta", text: t }), "valid", { text: t })),
    str.map((t) => genEvent(`null-prototype text_delta ${JSON.stringify(t)}`, () => nullProtoOf({ type: "text_delta", text: t }), "valid", { text: t })),
    str.map((t) => genEvent(`text_delta with extra keys`, () => ({ type: "text_delta", text: t, index: 3, extra: { x: 1 } }), "valid", { text: t })),
    ...(has(id, "toolLoop") ? [fc.tuple(fc.nat(999), str).map(([k, t]) => genEvent(`tool_call echo(${JSON.stringify(t)})`, () => ({ type: "tool_call", call: { id: `t${k}`, name: "echo", input: { text: t } } }), "valid", { call: { id: `t${k}`, text: t } }))] : []),
  );
  const end = fc.constantFrom(...legal).map((stop) => genEvent(`message_end ${stop}`, () => ({ type: "message_end", stopReason: stop }), "valid", { stop }));
  const badStop = fc
    .oneof(fc.constantFrom("length", "aborted", "pending", "toolUse", "Stop", "", ...PROTOTYPE_KEYS), fc.string({ maxLength: 8 }))
    .filter((s) => !legal.includes(s));
  const invalid: fc.Arbitrary<GenEvent> = fc.oneof(
    fc.constantFrom(
      genEvent("null", () => null, "invalid"),
      genEvent("undefined", () => undefined, "invalid"),
      genEvent("42", () => 42, "invalid"),
      genEvent('"message_end"', () => "message_end", "invalid"),
      genEvent("[]", () => [], "invalid"),
      genEvent("an array that carries type and text", () => Object.assign([], { type: "text_delta", text: "x" }), "invalid"),
      genEvent("{}", () => ({}), "invalid"),
      genEvent("text_delta without text", () => ({ type: "text_delta" }), "invalid"),
      genEvent("message_end without stopReason", () => ({ type: "message_end" }), "invalid"),
      genEvent("message_end with stopReason undefined", () => ({ type: "message_end", stopReason: undefined }), "invalid"),
      genEvent("tool_call without call", () => ({ type: "tool_call" }), "invalid"),
      genEvent("tool_call with call null", () => ({ type: "tool_call", call: null }), "invalid"),
      genEvent("tool_call whose id is a number", () => ({ type: "tool_call", call: { id: 7, name: "echo", input: {} } }), "invalid"),
      genEvent("tool_call without a name", () => ({ type: "tool_call", call: { id: "t", input: {} } }), "invalid"),
      genEvent("tool_call whose call is a string", () => ({ type: "tool_call", call: "echo" }), "invalid"),
    ),
    badStop.map((stop) => genEvent(`message_end ${JSON.stringify(stop)}`, () => ({ type: "message_end", stopReason: stop }), "invalid")),
    notString.map((h) => genEvent(`text_delta with text ${h.label}`, () => ({ type: "text_delta", text: h.make() }), "invalid")),
    notString.map((h) => genEvent(`message_end with stopReason ${h.label}`, () => ({ type: "message_end", stopReason: h.make() }), "invalid")),
    nameArb.filter((t) => !types.includes(t)).map((t) => genEvent(`unknown type ${JSON.stringify(t)}`, () => ({ type: t, text: "x" }), "invalid")),
    anyData.filter((h) => {
      const v = makeQuietly(h);
      return typeof v !== "object" || v === null || Array.isArray(v) || !types.includes(String((v as { type?: unknown }).type));
    }).map((h) => genEvent(h.label, h.make, "invalid")),
  );
  const throwing = fc.constantFrom(
    genEvent("revoked Proxy", () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }, "throws"),
    genEvent("type getter throws", () => Object.defineProperty({}, "type", { get: () => { throw new Error("type getter"); }, enumerable: true }), "throws"),
    genEvent("text getter throws", () => Object.defineProperty({ type: "text_delta" }, "text", { get: () => { throw new Error("text getter"); }, enumerable: true }), "throws"),
  );
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 2, arbitrary: end }, { weight: 3, arbitrary: invalid }, { weight: 1, arbitrary: throwing });
}

/** 一串事件：完全随机的，或者一条像样的回答（文字、s04 起带几个调用、以合法的 stopReason 收尾），可能在随便哪个位置混进一个坏事件。 */
function eventsArb(id: string): fc.Arbitrary<GenEvent[]> {
  const any = eventArb(id);
  const bad = any.filter((e) => e.kind !== "valid");
  const delta = str.map((t) => genEvent(`text_delta ${JSON.stringify(t)}`, () => ({ type: "text_delta", text: t }), "valid", { text: t }));
  const callEvent = (k: number, t: string): GenEvent =>
    genEvent(`tool_call echo(${JSON.stringify(t)})`, () => ({ type: "tool_call", call: { id: `t${k}`, name: "echo", input: { text: t } } }), "valid", { call: { id: `t${k}`, text: t } });
  const answer = fc
    .tuple(
      fc.array(delta, { maxLength: 3 }),
      has(id, "toolLoop") ? fc.array(str, { maxLength: 3 }) : fc.constant([] as string[]),
      fc.constantFrom(...(has(id, "toolLoop") ? ["toolUse", "toolUse", "stop", "error"] : ["stop", "error"])),
      fc.option(fc.tuple(bad, fc.nat()), { nil: undefined }),
      fc.array(any, { maxLength: 2 }),
    )
    .map(([deltas, calls, stop, corrupt, after]) => {
      const seq: GenEvent[] = [
        genEvent("message_start", () => ({ type: "message_start" }), "valid"),
        ...deltas,
        ...calls.map((t, k) => callEvent(k, t)),
        genEvent(`message_end ${stop}`, () => ({ type: "message_end", stopReason: stop }), "valid", { stop }),
        ...after,
      ];
      if (corrupt !== undefined) seq.splice(corrupt[1] % seq.length, 0, corrupt[0]);
      return seq;
    });
  return fc.oneof(fc.array(any, { maxLength: 8 }), answer);
}

forLessonsFrom("stream", (id, load) => {
  it("R4 第 2 类：任意事件序列（含坏事件、乱序、读一下就抛错的事件）：坏事件让这条回答以出错收尾并写明收到了什么；只有合法的 toolUse 回答里的调用才执行", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(eventsArb(id), fc.boolean(), async (events, tamper) => {
        // 调用 id 在一次回答里不重复（重复的 id 是另一回事，这里不考）
        const seq = events.filter((e, i) => e.call === undefined || events.findIndex((o) => o.call?.id === e.call?.id) === i);
        const { provider } = scriptedProvider(id, () => text("unused"));
        let k = 0;
        provider.stream = async function* () {
          const mine = k++;
          if (mine === 0) {
            for (const e of seq) {
              const event = e.make() as Event;
              yield event;
              // 交出去以后再改它手上那个调用的 id：core 记下的必须是交出那一刻的样子
              if (tamper && e.call !== undefined && event.type === "tool_call") event.call.id = "tampered";
            }
          }
          else yield* [{ type: "message_start" }, { type: "text_delta", text: "done" }, { type: "message_end", stopReason: "stop" }] as Event[];
        };
        const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "toolLoop") ? [echoTool("echo").tool] : [] });
        const reply = await mod.runOneTurn(agent, "go");

        // 预期：照剧本走一遍，不看课的代码
        let received = "";
        const calls: { id: string; text: string }[] = [];
        let first: { content: string | RegExp; stopReason: string } | undefined;
        for (const e of seq) {
          const lead = received === "" ? "" : `${received}\n`;
          if (e.kind === "invalid") first = { content: new RegExp(`^${escape(lead)}error: invalid event from provider: `), stopReason: "error" };
          else if (e.kind === "throws") first = { content: new RegExp(`^${escape(lead)}error: `), stopReason: "error" };
          else if (e.text !== undefined) received += e.text;
          else if (e.call !== undefined) calls.push(e.call);
          else if (e.stop !== undefined) first = { content: received, stopReason: e.stop };
          if (first !== undefined) break;
        }
        first ??= { content: `${received === "" ? "" : `${received}\n`}error: stream ended without message_end`, stopReason: "error" };
        const stored = messages();
        expect(stored[1]?.role).toBe("assistant");
        expect(stored[1]?.stopReason).toBe(first.stopReason);
        if (typeof first.content === "string") expect(stored[1]?.content).toBe(first.content);
        else expect(stored[1]?.content).toMatch(first.content);
        const ran = first.stopReason === "toolUse" && calls.length > 0;
        expect(stored.filter((m) => m.role === "toolResult").map((m) => [m.toolCallId, m.content]), "results for exactly the executed calls").toEqual(
          ran ? calls.map((c) => [c.id, `echo:${c.text}`]) : [],
        );
        expect(reply).toEqual(stored.at(-1));
        if (ran) expect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        expectSoundHistory(id, stored);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });

  it("R4 第 2 类：provider 不像 provider（没有 stream、stream 不是函数、交回的不是事件流）：这一轮以出错收尾，之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(returnedArb, fc.constantFrom("provider itself", "stream property", "stream() result"), async (h, where) => {
        // 放在 provider 位置上的 Promise（或 stream() 交回的 Promise）是调用方自己丢下的：core 不等它，也不替它接 reject
        // （EVOLUTION.md §8），所以这里由测试自己接住
        const made = (): unknown => {
          const value = h.make();
          if (thenable(value)) Promise.resolve(value).catch(() => {});
          return value;
        };
        const { agent, messages } = makeAgent(id, mod, { provider: okProvider(id) });
        if (where === "provider itself") agent.provider = made() as ProviderLike;
        else if (where === "stream property") agent.provider = { stream: made() as ProviderLike["stream"] };
        else agent.provider = { stream: () => made() as AsyncGenerator<Event> };
        const reply = await mod.runOneTurn(agent, "go");
        expect(reply.stopReason, "a provider that is not a provider ends the turn in an error").toBe("error");
        expect(reply.content).toMatch(/^error: /);
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});

/** 正则里按字面匹配一段文字。 */
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// ── 第 3 类：工具契约在运行时也算数（s04 起） ───────────────────
// ToolHandler 同步、回文字（D27）：回了别的（数字、对象、undefined、Promise……）就是一条 "error: tool "x" returned …, expected a string"，
// 它要是个会 reject 的 Promise，失败也被接住；以后每一轮都不受影响。参数嵌得再深也只是一条参数错误。
forLessonsFrom("toolLoop", (id, load) => {
  it("R4 第 3 类：handler 回任何值：文字原样是结果，别的变成一条说清楚的错误结果；没有没人接的 reject；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(returnedArb, async (h) => {
        let returned: unknown;
        const tool: ToolLike = {
          spec: { name: "h", description: "h", input: {} },
          handler: () => {
            returned = h.make();
            return returned as string;
          },
        };
        const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "c1", name: "h", input: {} }) : text("done")));
        const { agent, messages } = makeAgent(id, mod, { provider, tools: [tool] });
        const watch = watchUnhandled();
        const reply = await mod.runOneTurn(agent, "go");
        await settle();
        expect(watch.stop(), "every Promise the core did not wait for had its failure caught").toEqual([]);
        const results = messages().filter((m) => m.role === "toolResult");
        expect(results.map((m) => m.toolCallId)).toEqual(["c1"]);
        if (typeof returned === "string") expect(results[0].content).toBe(returned);
        else expect(results[0].content).toMatch(/^error: tool "h" returned .*, expected a string$/s);
        expect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });

  it("R4 第 3 类：参数嵌得很深（合法的 JSON），或者带着 BigInt、循环引用：只是一条参数错误，日志行也写得出来", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom("text", "extra"), fc.constantFrom("deep", "bigint", "cyclic"), async (depth, key, shape) => {
        let value: unknown = "bottom";
        if (shape === "deep") for (let i = 0; i < depth; i++) value = { a: value };
        else if (shape === "bigint") value = { n: 10n };
        else {
          const o: Record<string, unknown> = {};
          o.self = o;
          value = o;
        }
        const echo = echoTool("echo");
        const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "c1", name: "echo", input: { [key]: value } }) : text("done")));
        const { agent, messages, lines } = makeAgent(id, mod, { provider, tools: [echo.tool] });
        const reply = await mod.runOneTurn(agent, "go");
        expect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        expect(messages().filter((m) => m.role === "toolResult").map((m) => m.content)).toEqual([
          key === "text"
            ? 'error: invalid arguments for tool "echo": argument "text" must be a string'
            : 'error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "extra"',
        ]);
        expect(echo.calls).toEqual([]);
        if (!has(id, "modes")) expect(lines.some((l) => l.startsWith("  → echo("))).toBe(true);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      { ...BOUNDARY_RUNS, numRuns: Math.min(BOUNDARY_RUNS.numRuns, 20) },
    );
  });
});

// ── 第 4 类：钩子出了岔子就按拦下处理（s05 起） ─────────────────
// beforeToolCall 只有回一个像样的 {type: "allow"} 才放行；像样的 block 照常拦下；别的一切（undefined、Promise、
// 缺 reason 的 block、Pi 写法的 {block: true}……）都是 "error: hook failed: beforeToolCall returned …"，调用不执行（D28）。
// afterToolCall 回的不是文字同样是 hook failed。钩子改了 call.id，结果照样带着模型给的 id。
type Verdict = "allow" | { block: string } | "bad";
const verdict = (label: string, make: () => unknown, v: Verdict): Hostile & { verdict: Verdict } =>
  ({ label, make, verdict: v, [fc.toStringMethod]: () => `${label} (${typeof v === "string" ? v : `block ${v.block}`})` }) as Hostile & { verdict: Verdict };
/** 只给普通数据用（fc.anything 产出的值）：这个值作为 beforeToolCall 的答复算什么。 */
function plainVerdict(v: unknown): Verdict {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "bad";
  const o = v as { type?: unknown; reason?: unknown };
  if (o.type === "allow") return "allow";
  if (o.type === "block" && typeof o.reason === "string") return { block: o.reason };
  return "bad";
}
const decisionArb: fc.Arbitrary<Hostile & { verdict: Verdict }> = fc.oneof(
  fc.constant(verdict('{type: "allow"}', () => ({ type: "allow" }), "allow")),
  fc.constant(verdict('{type: "allow"} with extra keys', () => ({ type: "allow", reason: 42, block: true }), "allow")),
  fc.constant(verdict('null-prototype {type: "allow"}', () => Object.assign(Object.create(null) as object, { type: "allow" }), "allow")),
  str.map((r) => verdict(`{type: "block", reason: ${JSON.stringify(r)}}`, () => ({ type: "block", reason: r }), { block: r })),
  fc.constantFrom(
    verdict("undefined", () => undefined, "bad"),
    verdict("null", () => null, "bad"),
    verdict('{type: "block"} without a reason', () => ({ type: "block" }), "bad"),
    verdict('{type: "block", reason: 42}', () => ({ type: "block", reason: 42 }), "bad"),
    verdict("Pi's {block: true, reason}", () => ({ block: true, reason: "no" }), "bad"),
    verdict('{type: "Allow"}', () => ({ type: "Allow" }), "bad"),
    verdict('"allow"', () => "allow", "bad"),
    verdict("a Promise of allow", () => Promise.resolve({ type: "allow" }), "bad"),
    verdict("a Promise of block (Pi's hooks are async)", () => Promise.resolve({ type: "block", reason: "async says no" }), "bad"),
    verdict("a rejecting Promise", () => Promise.reject(new Error("async hook failed")), "bad"),
    verdict("a thenable of allow", () => ({ then: (ok: (v: unknown) => void) => ok({ type: "allow" }) }), "bad"),
  ),
  fc.constantFrom(...RETURNED).map((h) => verdict(h.label, h.make, "bad")),
  anyData.map((h) => verdict(h.label, h.make, plainVerdict(makeQuietly(h)))),
);

forLessonsFrom("hooks", (id, load) => {
  it("R4 第 4 类：beforeToolCall / afterToolCall 回任何值：只有像样的 allow 才执行；结果永远带模型给的 id；没有没人接的 reject；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(
        decisionArb,
        fc.option(returnedArb, { nil: undefined }),
        fc.option(nameArb, { nil: undefined }),
        async (decision, after, forgedId) => {
          const echo = echoTool("echo");
          const hooks: Hooks = {
            beforeToolCall: (call) => {
              if (forgedId !== undefined) call.id = forgedId;
              return decision.make() as { type: "allow" };
            },
          };
          let afterValue: unknown;
          if (after !== undefined) {
            hooks.afterToolCall = () => {
              afterValue = after.make();
              return afterValue as string;
            };
          }
          const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "model-id", name: "echo", input: { text: "x" } }) : text("done")));
          const { agent, messages } = makeAgent(id, mod, { provider, tools: [echo.tool], hooks });
          const watch = watchUnhandled();
          const reply = await mod.runOneTurn(agent, "go");
          await settle();
          expect(watch.stop()).toEqual([]);
          const results = messages().filter((m) => m.role === "toolResult");
          expect(results.map((m) => m.toolCallId), "the result answers the call the model made").toEqual(["model-id"]);
          const v = decision.verdict;
          expect(echo.calls.length, "the handler runs only after a well-formed allow").toBe(v === "allow" ? 1 : 0);
          // 读一下就抛错的答复（撤销了的 Proxy）说的是读它时的错；别的都写明回了什么
          if (v === "bad") expect(results[0].content).toMatch(decision.label.includes("Proxy") ? /^error: hook failed: / : /^error: hook failed: beforeToolCall returned /);
          else if (v !== "allow") expect(results[0].content).toBe(`error: blocked: ${v.block}`);
          else if (after === undefined || typeof afterValue === "string") expect(results[0].content).toBe(after === undefined ? "echo:x" : afterValue);
          else expect(results[0].content).toMatch(/^error: hook failed: afterToolCall returned .*, expected a string$/s);
          expect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
          expectSoundHistory(id, messages());
          await ordinaryTurnAfter(id, mod, agent, messages);
        },
      ),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 5 类：provider 改了手上的输入，别处都不受影响（s01 起；工具清单 s02 起，快照 s06 起） ──
type Mutation =
  | "push message"
  | "unshift message"
  | "pop message"
  | "clear messages"
  | "edit first message"
  | "edit last message"
  | "edit a tool spec"
  | "add a tool parameter"
  | "delete a tool parameter"
  | "push a tool"
  | "clear tools"
  | "replace systemPrompt"
  | "replace arrays";
const MUTATIONS: Mutation[] = [
  "push message",
  "unshift message",
  "pop message",
  "clear messages",
  "edit first message",
  "edit last message",
  "edit a tool spec",
  "add a tool parameter",
  "delete a tool parameter",
  "push a tool",
  "clear tools",
  "replace systemPrompt",
  "replace arrays",
];
function mutate(input: Input, m: Mutation): void {
  const msgs = input.messages;
  const tools = input.tools ?? [];
  switch (m) {
    case "push message":
      msgs.push({ role: "user", content: "INJECTED" });
      break;
    case "unshift message":
      msgs.unshift({ role: "assistant", content: "INJECTED", stopReason: "stop" });
      break;
    case "pop message":
      msgs.pop();
      break;
    case "clear messages":
      msgs.length = 0;
      break;
    case "edit first message":
      if (msgs[0] !== undefined) Object.assign(msgs[0], { content: "EDITED", role: "assistant", toolCallId: "forged" });
      break;
    case "edit last message":
      if (msgs.length > 0) Object.assign(msgs[msgs.length - 1], { content: "EDITED" });
      break;
    case "edit a tool spec":
      if (tools[0] !== undefined) Object.assign(tools[0], { name: "EDITED", description: "EDITED" });
      break;
    case "add a tool parameter":
      if (tools[0] !== undefined) tools[0].input.injected = "x";
      break;
    case "delete a tool parameter":
      for (const t of tools) for (const k of Object.keys(t.input)) delete t.input[k];
      break;
    case "push a tool":
      tools.push({ name: "INJECTED", description: "", input: {} });
      break;
    case "clear tools":
      tools.length = 0;
      break;
    case "replace systemPrompt":
      input.systemPrompt = "INJECTED";
      break;
    case "replace arrays":
      input.messages = [];
      input.tools = [];
      break;
  }
}

forLessonsFrom("s01", (id, load) => {
  it("R4 第 5 类：provider 随便改它收到的输入：这一轮后面的请求、下一轮的请求、历史、registry 里的工具都和它什么都没改时一样", async () => {
    const mod = await load();
    // 同一个剧本跑两遍：一遍 provider 每次都改输入，一遍不改；provider 看到的输入（改之前记下）、历史、工具都必须一样
    const runOnce = async (mutations: Mutation[][]): Promise<unknown> => {
      const seen: Input[] = [];
      let k = 0;
      const answer = (input: Input): Step[] => {
        seen.push(structuredClone(input));
        const mine = k++;
        for (const m of mutations[mine % Math.max(1, mutations.length)] ?? []) mutate(input, m);
        if (has(id, "toolLoop") && mine % 3 !== 2) return toolUse("", { id: `c${mine}`, name: "echo", input: { text: `x${mine}` } });
        return text(`answer ${mine}`);
      };
      const provider: ProviderLike =
        !has(id, "stream")
          ? { complete: async (input) => answer(input).flatMap((s) => (s.type === "text_delta" ? [s.text] : [])).join("") }
          : {
              async *stream(input) {
                yield* answer(input) as Event[];
              },
            };
      const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "tools") ? [echoTool("echo").tool, echoTool("pair", ["a", "b"]).tool] : [] });
      await mod.runOneTurn(agent, "one");
      await mod.runOneTurn(agent, "two");
      expectSoundHistory(id, messages());
      return { seen, history: messages(), tools: agent.registry?.getSpecs() };
    };
    const reference = await runOnce([]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.subarray(MUTATIONS, { minLength: 1 }), { minLength: 1, maxLength: 4 }), async (mutations) => {
        expect(await runOnce(mutations)).toEqual(reference);
      }),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 6 类：按不可信的名字查东西，摸不到 Object.prototype（s02 起） ──
forLessonsFrom("tools", (id, load) => {
  it("R4 第 6 类：任意名字（含 __proto__、constructor、toString）：演示工具的路径、工具名、模型名、命令名、包里的名字，要么查到自己的，要么是清楚的「没有」", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(nameArb, async (name) => {
        // 演示工具：路径是模型给的
        const read = mod.createDemoTools().find((t) => t.spec.name === "read");
        const known = Object.hasOwn(mod.DEMO_FILES, name);
        let out: unknown;
        try {
          out = read?.handler({ path: name });
        } catch (error) {
          out = error instanceof Error ? error.message : "?";
        }
        expect(out).toBe(known ? mod.DEMO_FILES[name] : `no such file: ${name}`);
        if (!has(id, "toolLoop")) return;

        // 工具名：registry 里只有 echo
        const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "c1", name, input: { text: "x" } }) : text("done")));
        const built = makeAgent(id, mod, { provider, tools: [echoTool("echo").tool] });
        await mod.runOneTurn(built.agent, "go");
        expect(built.messages().filter((m) => m.role === "toolResult").map((m) => m.content)).toEqual([name === "echo" ? "echo:x" : `error: unknown tool "${name}"`]);
        expectSoundHistory(id, built.messages());

        if (has(id, "model")) {
          // 模型名：providers 只有自己的键才算
          const { agent } = makeAgent(id, mod, { provider: okProvider(id, "default") });
          agent.providers = { special: okProvider(id, "special") };
          if (name === "special" || name === "constructor") agent.providers[name] = okProvider(id, `own ${name}`);
          agent.state.model = name;
          const reply = await mod.runOneTurn(agent, "go");
          expect(reply.content).toBe(Object.hasOwn(agent.providers, name) ? `own ${name}` : "default");
        }
        if (has(id, "extensions")) {
          const { agent } = makeAgent(id, mod, { provider: okProvider(id) });
          agent.runtime?.use((api) => api.registerCommand({ name: "known", run: () => "ran" }));
          expect(agent.runtime?.runCommand(name)).toBe(name === "known" ? "ran" : `error: unknown command "${name}"`);
        }
        if (has(id, "packages")) {
          // 包：工具、命令、技能都用这个名字；要么整包装上、名字都查得到，要么整包拒绝、什么都没变
          const { agent } = makeAgent(id, mod, { provider: okProvider(id) });
          const before = JSON.stringify([agent.registry?.getSpecs(), agent.loader?.load("trusted"), agent.packages]);
          const pkg = { manifest: { name: `p-${name}`, tools: [name], commands: [name], resources: [`skills/${name}`] }, contents: Object.fromEntries([[name, "t {x}"], [`skills/${name}`, "Skill."]]) };
          let installed = true;
          try {
            mod.installPackage(agent, mod.loadPackage(pkg));
          } catch {
            installed = false;
          }
          if (installed) {
            expect(agent.registry?.getSpecs().map((s) => s.name)).toEqual([name]);
            expect(agent.runtime?.runCommand(name)).toBe("t {x}");
            expect(agent.loader?.load("trusted").map((r) => r.name)).toEqual([name]);
          } else {
            expect(JSON.stringify([agent.registry?.getSpecs(), agent.loader?.load("trusted"), agent.packages]), "a refused package changes nothing").toBe(before);
          }
        }
      }),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 7 类：一轮前后调用的一切都在 R4 里面（s08 起的 loader；抛错的情形见第 1 类） ──
forLessonsFrom("resources", (id, load) => {
  it("R4 第 7 类：loader.load() 交回任何东西：要么这一轮照常，要么以 \"error: could not start the turn: …\" 收尾；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(thrownArb, async (h) => {
        const { agent, messages } = makeAgent(id, mod, { provider: okProvider(id, "fine") });
        agent.loader = { load: () => h.make() as [] };
        const reply = await mod.runOneTurn(agent, "go");
        if (reply.stopReason === "error") expect(reply.content).toMatch(/^error: could not start the turn: /);
        else expect(reply).toEqual({ role: "assistant", content: "fine", stopReason: "stop" });
        expect(messages().at(-1)).toEqual(reply);
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 8 类：扩展从不悄悄丢活（s09 起） ─────────────────────────
// 任意的扩展程序：登记工具（可能坏、可能重名）、命令、监听，嵌套 use 别的扩展，抛任意值，返回任意值，或者是 async 的
// （await 前后都登记）。use() 从不抛错；每个扩展要么整个装上，要么一样不留并在 errors 里记一条（D30）。
type ExtStep =
  | { op: "tool"; name: string; malformed: boolean }
  | { op: "command"; name: string }
  | { op: "on" }
  | { op: "nested"; plan: ExtPlan }
  | { op: "throw"; value: Hostile };
type ExtPlan = {
  notAFunction: Hostile | undefined;
  steps: ExtStep[];
  /** async：steps 在 await 之前，later 在 await 之后。 */
  ending: { kind: "return" } | { kind: "returns"; value: Hostile } | { kind: "async"; later: ExtStep[] };
};
const EXT_NAMES = ["a", "b", "c", "__proto__", "constructor"];
const extPlanArb: fc.Arbitrary<ExtPlan> = fc.letrec<{ plan: ExtPlan; step: ExtStep; leafStep: ExtStep }>((tie) => ({
  leafStep: fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant("tool" as const), name: fc.constantFrom("a", "b", "__proto__"), malformed: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 4, arbitrary: fc.constant(false) }) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant("command" as const), name: fc.constantFrom("a", "b", "constructor") }) },
    { weight: 2, arbitrary: fc.constant({ op: "on" as const }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("throw" as const), value: thrownArb }) },
  ),
  step: fc.oneof({ weight: 4, arbitrary: tie("leafStep") }, { weight: 1, arbitrary: fc.record({ op: fc.constant("nested" as const), plan: tie("plan") }) }),
  plan: fc.record({
    notAFunction: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: returnedArb }),
    steps: fc.array(tie("step"), { maxLength: 4 }),
    ending: fc.oneof(
      { weight: 4, arbitrary: fc.constant({ kind: "return" as const }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("returns" as const), value: returnedArb }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("async" as const), later: fc.array(tie("leafStep"), { maxLength: 2 }) }) },
    ),
  }),
})).plan;
/** 专门造「嵌套撞名」：外面的扩展和它 use 的里面那个登记同一个名字，先后次序随机。 */
const nestedClashArb: fc.Arbitrary<ExtPlan> = fc
  .tuple(fc.constantFrom("tool" as const, "command" as const), fc.constantFrom("b", "__proto__", "constructor"), fc.boolean(), extPlanArb)
  .map(([op, name, outerFirst, inner]) => {
    const mine: ExtStep = op === "tool" ? { op, name, malformed: false } : { op, name };
    const nested: ExtStep = { op: "nested", plan: { ...inner, notAFunction: undefined, steps: [mine, ...inner.steps] } };
    return { notAFunction: undefined, steps: outerFirst ? [mine, nested] : [nested, mine], ending: { kind: "return" } };
  });

/** 这个值会不会被当成 Promise（有 then 方法，读 then 本身不抛错）。 */
const thenable = (v: unknown): boolean => {
  try {
    return typeof (v as { then?: unknown } | null | undefined)?.then === "function";
  } catch {
    return false;
  }
};

type ExtWorld = { tools: string[]; commands: string[]; heard: string[]; errors: number; later: (() => void)[] };

/** 模型：照规则（D10、D30）推出 use(plan) 之后的世界，不看课的代码。 */
function simulateUse(plan: ExtPlan, label: string, world: ExtWorld): void {
  const fail = (): void => void world.errors++;
  if (plan.notAFunction !== undefined) {
    // 扩展就是这个怪值本身：不是函数，或者是个什么都不登记的函数（调用时可能抛错、可能回个 Promise）
    const ext = plan.notAFunction.make();
    if (thenable(ext)) Promise.resolve(ext).catch(() => {}); // 模型自己做出来的 Promise，模型自己接住
    if (typeof ext !== "function") return fail();
    try {
      if (thenable((ext as (api: unknown) => unknown)({}))) fail();
    } catch {
      fail();
    }
    return;
  }
  const tools: string[] = [];
  const commands: string[] = [];
  const heard: string[] = [];
  const taken = new Set(world.tools);
  const runSteps = (steps: ExtStep[], loading: boolean): boolean => {
    for (const [i, step] of steps.entries()) {
      if (step.op === "throw") return false;
      if (step.op === "nested") {
        simulateUse(step.plan, `${label}.${i}`, world);
        continue;
      }
      if (!loading) return false;
      if (step.op === "on") heard.push(label);
      else if (step.op === "tool") {
        if (step.malformed || taken.has(step.name)) return false;
        taken.add(step.name);
        tools.push(step.name);
      } else {
        if (world.commands.includes(step.name) || commands.includes(step.name)) return false;
        commands.push(step.name);
      }
    }
    return true;
  };
  if (!runSteps(plan.steps, true)) return fail();
  const ending = plan.ending;
  if (ending.kind === "async") {
    world.later.push(() => void runSteps(ending.later, false));
    return fail();
  }
  if (ending.kind === "returns") {
    const returned = ending.value.make();
    if (thenable(returned)) {
      Promise.resolve(returned).catch(() => {});
      return fail();
    }
  }
  if (tools.some((t) => world.tools.includes(t)) || commands.some((c) => world.commands.includes(c))) return fail();
  world.tools.push(...tools);
  world.commands.push(...commands);
  world.heard.push(...heard);
}

/** 照计划造出真的扩展函数。 */
function buildExt(plan: ExtPlan, label: string, runtime: Runtime, heard: string[]): unknown {
  if (plan.notAFunction !== undefined) return plan.notAFunction.make();
  const runSteps = (api: ExtensionApiLike, steps: ExtStep[]): void => {
    for (const [i, step] of steps.entries()) {
      if (step.op === "throw") throw step.value.make();
      if (step.op === "nested") runtime.use(buildExt(step.plan, `${label}.${i}`, runtime, heard) as (api: ExtensionApiLike) => void);
      else if (step.op === "on") api.on("message", () => void heard.push(label));
      else if (step.op === "tool") api.registerTool(step.malformed ? ({ spec: { name: step.name, description: 1, input: null }, handler: "nope" } as unknown as ToolLike) : echoTool(step.name).tool);
      else api.registerCommand({ name: step.name, run: () => `cmd ${step.name}` });
    }
  };
  const ending = plan.ending;
  const ext =
    ending.kind === "async"
      ? async (api: ExtensionApiLike): Promise<void> => {
          runSteps(api, plan.steps);
          await null;
          runSteps(api, ending.later);
        }
      : (api: ExtensionApiLike): unknown => {
          runSteps(api, plan.steps);
          return ending.kind === "returns" ? ending.value.make() : undefined;
        };
  Object.defineProperty(ext, "name", { value: label });
  return ext;
}

forLessonsFrom("extensions", (id, load) => {
  it("R4 第 8 类：任意扩展（坏工具、重名、嵌套 use、抛任意值、回任意值、async）：use() 从不抛错；每个扩展要么整个装上，要么一样不留并记一条错", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ weight: 3, arbitrary: extPlanArb }, { weight: 1, arbitrary: nestedClashArb }), { minLength: 1, maxLength: 3 }), async (plans) => {
        const { agent, messages } = makeAgent(id, mod, { provider: okProvider(id), tools: [echoTool("a").tool] });
        const runtime = agent.runtime;
        if (runtime === undefined) throw new Error("no runtime");
        runtime.use((api) => api.registerCommand({ name: "a", run: () => "pre" }));
        const heard: string[] = [];
        const world: ExtWorld = { tools: ["a"], commands: ["a"], heard: [], errors: 0, later: [] };
        const watch = watchUnhandled();
        for (const [i, plan] of plans.entries()) {
          simulateUse(plan, `ext${i}`, world);
          expect(() => runtime.use(buildExt(plan, `ext${i}`, runtime, heard) as (api: ExtensionApiLike) => void), "use() never throws").not.toThrow();
        }
        for (const later of world.later) later();
        await settle();
        expect(watch.stop(), "no unhandled rejections").toEqual([]);
        expect(agent.registry?.getSpecs().map((s) => s.name).sort(), "tools").toEqual([...world.tools].sort());
        for (const name of EXT_NAMES) {
          expect(runtime.runCommand(name), `command ${name}`).toBe(name === "a" ? "pre" : world.commands.includes(name) ? `cmd ${name}` : `error: unknown command "${name}"`);
        }
        expect(runtime.errors, "one error per extension that was not installed").toHaveLength(world.errors);
        for (const e of runtime.errors) expect(e).toMatch(/^error: extension ".*" failed to load: /s);
        runtime.emit({ type: "message", content: "m" });
        expect(heard.sort(), "only installed extensions hear events").toEqual([...world.heard].sort());
        await mod.runOneTurn(agent, "go");
        expectSoundHistory(id, messages());
      }),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 9 类：一次一轮（s01 起） ─────────────────────────────────
// 同一个 agent 上一轮没跑完又来一轮：这一次直接回 "error: agent is already processing a prompt"，不存、不改任何东西（D33）。
const BUSY = { role: "assistant", content: "error: agent is already processing a prompt", stopReason: "error" };
const tick = async (k: number): Promise<void> => {
  for (let i = 0; i < k; i++) await null;
};

forLessonsFrom("s01", (id, load) => {
  it("R4 第 9 类：任意时刻发起的几轮对话（含工具里、监听里再发起的）：历史从不交错；没跑的那几次拿到一条说明，什么都不存；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(12), { minLength: 2, maxLength: 4 }), fc.nat(4), fc.boolean(), async (starts, slowness, reenter) => {
        // provider 每个事件前都让出几次，一轮要跨好些微任务；s04 起每轮先调一次工具
        const nested: Promise<Msg>[] = [];
        let agentRef: TestAgent | undefined;
        const tool: ToolLike = {
          spec: { name: "t", description: "t", input: {} },
          handler: () => {
            if (reenter && agentRef !== undefined) nested.push(mod.runOneTurn(agentRef, "from a tool"));
            return "t ok";
          },
        };
        const answer = (input: Input): Step[] => {
          const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
          return has(id, "toolLoop") && input.messages.at(-1)?.role === "user" ? toolUse("", { id: `c-${question}`, name: "t", input: {} }) : text(`re ${question}`);
        };
        const provider: ProviderLike =
          !has(id, "stream")
            ? {
                complete: async (input) => {
                  await tick(slowness);
                  return `re ${input.messages.findLast((m) => m.role === "user")?.content ?? ""}`;
                },
              }
            : {
                async *stream(input) {
                  for (const e of answer(input) as Event[]) {
                    await tick(slowness);
                    yield e;
                  }
                },
              };
        const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "tools") ? [tool] : [] });
        agentRef = agent;
        if (reenter) agent.runtime?.use((api) => api.on("message", () => void nested.push(mod.runOneTurn(agent, "from a listener"))));
        const replies = await Promise.all(
          starts.map(async (delay, i) => {
            await tick(delay);
            return mod.runOneTurn(agent, `q${i}`);
          }),
        );
        const nestedReplies = await Promise.all(nested);
        expect(nestedReplies.every((r) => JSON.stringify(r) === JSON.stringify(BUSY)), "a turn started from inside a turn is refused").toBe(true);
        const stored = messages();
        const accepted = starts.map((_, i) => i).filter((i) => JSON.stringify(replies[i]) !== JSON.stringify(BUSY));
        expect(accepted.length, "at least the first turn runs").toBeGreaterThan(0);
        // 历史 = 被接受的那几轮，一轮接一轮，互不交错；被拒的问题一个字都没进历史
        const users = stored.filter((m) => m.role === "user").map((m) => m.content);
        expect(users, "only accepted turns are stored, each once").toEqual(expect.arrayContaining(accepted.map((i) => `q${i}`)));
        expect(users).toHaveLength(accepted.length);
        for (const i of accepted) {
          const at = stored.findIndex((m) => m.role === "user" && m.content === `q${i}`);
          const next = stored.findIndex((m, j) => j > at && m.role === "user");
          const turn = stored.slice(at, next === -1 ? undefined : next);
          expect(turn.at(-1), `turn q${i} ends with its own reply`).toEqual(replies[i]);
          expect(turn.filter((m) => m.role === "assistant").at(-1)?.content).toBe(`re q${i}`);
        }
        expectSoundHistory(id, stored);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});

// ── 第 10 类：监听改不了运行模式打印的东西（s10 起；s09 起别的监听也看不到改动） ──
type EventEdit = "content" | "type" | "delete content" | "null prototype" | "extra field" | "freeze";
forLessonsFrom("extensions", (id, load) => {
  it("R4 第 10 类：监听随便改它收到的事件：别的监听收到的还是原样" + (has(id, "modes") ? "，运行模式打印的也还是原样" : ""), async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<EventEdit>("content", "type", "delete content", "null prototype", "extra field", "freeze"), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("print", "json"),
        async (edits, modeKind) => {
          const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("look", { id: "c1", name: "echo", input: { text: "x" } }) : text("final")));
          const out: string[] = [];
          const output = { log: (line: string) => void out.push(line) };
          const { agent, messages } = makeAgent(id, mod, { provider, tools: [echoTool("echo").tool] });
          if (has(id, "modes")) agent.mode = modeKind === "json" ? new mod.JsonMode(output) : new mod.PrintMode(output);
          const seen: RuntimeEventLike[] = [];
          agent.runtime?.use((api) => {
            const vandal = (e: RuntimeEventLike): void => {
              const loose = e as Record<string, unknown>;
              for (const edit of edits) {
                if (edit === "content") loose.content = "VANDALISED";
                else if (edit === "type") loose.type = loose.type === "done" ? "message" : "done";
                else if (edit === "delete content") delete loose.content;
                else if (edit === "null prototype") Object.setPrototypeOf(e, null);
                else if (edit === "extra field") loose.extra = "x";
                else Object.freeze(e);
              }
            };
            api.on("message", vandal);
            api.on("done", vandal);
          });
          agent.runtime?.use((api) => {
            api.on("message", (e) => void seen.push({ ...e }));
            api.on("done", (e) => void seen.push({ ...e }));
          });
          await mod.runOneTurn(agent, "go");
          const events: RuntimeEventLike[] = [...messages().slice(1).map((m) => ({ type: "message" as const, content: m.content })), { type: "done" }];
          expect(seen, "later listeners see the events as the loop sent them").toEqual(events);
          if (has(id, "modes")) {
            const expected: string[] = [];
            const fresh = modeKind === "json" ? new mod.JsonMode({ log: (l) => void expected.push(l) }) : new mod.PrintMode({ log: (l) => void expected.push(l) });
            fresh.render(events);
            expect(out, "what the mode prints").toEqual(expected);
          }
          // 冻住之后再改，是这个监听自己在严格模式下抛错：记成它的错，别的不受影响
          for (const e of agent.runtime?.errors ?? []) expect(e).toMatch(/^error: handler for "(message|done)" failed: /);
        },
      ),
      BOUNDARY_RUNS,
    );
  });
});

// ── recordToolCalls 是手写的迭代器（s04 起，D41）：和 for await 写的转发行为一样 ─────────
// 对照的就是它原来的写法。provider 的流换成一个会记账的手写流：它交出的东西（合法事件、坏事件、抛错）、
// 有没有 return、return 会不会出错都随机；读的一方要么是 collectAssistantMessage，要么一步步读、读几步就收手。
// 两边转交的事件、记下的调用、最后的结果或错误、流被 next/return 了几次、按什么顺序，都必须一样。
type Recorder = (events: AsyncIterable<Event>, calls: Call[]) => AsyncGenerator<Event>;
type WithRecorder = LessonModule & { recordToolCalls: Recorder; parseProviderEvent(raw: unknown): Event };

/** recordToolCalls 原来的写法：async function* 加 for await。 */
function forAwaitRecorder(parse: (raw: unknown) => Event): Recorder {
  return async function* (events, calls) {
    for await (const raw of events) {
      const event = parse(raw);
      if (event.type === "tool_call") calls.push(event.call);
      yield event;
    }
  };
}

const BROKE = Symbol("source throws here");
type SourceItem = unknown;
const sourceItemArb: fc.Arbitrary<SourceItem> = fc.oneof(
  fc.constant<SourceItem>({ type: "message_start" }),
  str.map((t): SourceItem => ({ type: "text_delta", text: t })),
  fc.constantFrom<SourceItem>({ type: "message_end", stopReason: "stop" }, { type: "message_end", stopReason: "toolUse" }, { type: "message_end", stopReason: "length" }),
  fc.record({ id: str, name: fc.constantFrom("echo", "nope") }).map((c): SourceItem => ({ type: "tool_call", call: { ...c, input: { text: "x" } } })),
  fc.constantFrom<SourceItem>(null, "text", { type: "unknown" }, { type: "text_delta", text: 42 }, { type: "tool_call" }),
  fc.constant<SourceItem>(BROKE),
);
type Ending = "return works" | "no return" | "return throws" | "return rejects";

/** 一条会记账的事件流：log 里按顺序记着 next、return。 */
function accountedSource(items: SourceItem[], ending: Ending): { events: AsyncIterable<Event>; log: string[] } {
  const log: string[] = [];
  let i = 0;
  const iterator: AsyncIterator<Event> = {
    async next() {
      log.push("next");
      if (i >= items.length) return { done: true, value: undefined };
      const item = items[i++];
      if (item === BROKE) throw new Error("source broke");
      return { done: false, value: item as Event };
    },
  };
  if (ending !== "no return") {
    iterator.return = (): Promise<IteratorResult<Event>> => {
      log.push("return");
      if (ending === "return throws") throw new Error("return threw");
      if (ending === "return rejects") return Promise.reject(new Error("return rejected"));
      return Promise.resolve({ done: true, value: undefined });
    };
  }
  return { events: { [Symbol.asyncIterator]: () => iterator }, log };
}

/** 按一种读法读完，交出能比较的账。 */
async function readThrough(record: Recorder, items: SourceItem[], ending: Ending, reader: "collect" | number, collect: LessonModule["collectAssistantMessage"]): Promise<unknown> {
  const { events, log } = accountedSource(items, ending);
  const calls: Call[] = [];
  const seen: unknown[] = [];
  let outcome: unknown;
  const recorder = record(events, calls);
  if (reader === "collect") {
    outcome = await collect(recorder);
  } else {
    // 一步步读：读到头或出错就停；读满 reader 步还没完，就像 for await 提前退出那样 return 一次
    let finished = false;
    try {
      for (let k = 0; k < reader && !finished; k++) {
        const step = await recorder.next();
        seen.push(step);
        finished = step.done === true;
      }
      if (!finished) outcome = { returned: await recorder.return(undefined) };
    } catch (error) {
      outcome = { threw: error instanceof Error ? error.message : String(error) };
    }
  }
  return { outcome, seen, calls, log };
}

forLessonsFrom("s04", (id, load) => {
  it("recordToolCalls（D41）：任意事件流、任意读法，转交的事件、记下的调用、结果和关流的时机都和 for await 写的一样", async () => {
    const mod = (await load()) as WithRecorder;
    const reference = forAwaitRecorder(mod.parseProviderEvent);
    await fc.assert(
      fc.asyncProperty(
        fc.array(sourceItemArb, { maxLength: 8 }),
        fc.constantFrom<Ending>("return works", "no return", "return throws", "return rejects"),
        fc.oneof(fc.constant<"collect">("collect"), fc.integer({ min: 1, max: 9 })),
        async (items, ending, reader) => {
          const ours = await readThrough(mod.recordToolCalls, items, ending, reader, mod.collectAssistantMessage);
          const theirs = await readThrough(reference, items, ending, reader, mod.collectAssistantMessage);
          expect(ours).toEqual(theirs);
        },
      ),
      params,
    );
  });

  it("recordToolCalls（D41）：坏事件、提前收手都会关掉 provider 的流（真的生成器，它的 finally 跑了）", async () => {
    const mod = (await load()) as WithRecorder;
    for (const [what, items] of [
      ["坏事件", [{ type: "message_start" }, { type: "nope" }, { type: "message_end", stopReason: "stop" }]],
      ["message_end 之后还有事件", [{ type: "message_start" }, { type: "message_end", stopReason: "stop" }, { type: "text_delta", text: "late" }]],
    ] as const) {
      let closed = false;
      async function* stream(): AsyncGenerator<Event> {
        try {
          for (const item of items) yield item as Event;
        } finally {
          closed = true;
        }
      }
      await mod.collectAssistantMessage(mod.recordToolCalls(stream(), []));
      expect(closed, what).toBe(true);
    }
  });
});

// ── 包的资料叠在原来的 loader 上（s12，D40） ─────────────────────────────
// 装包一份资料都不读；之后每次 load(trust) 都用同一个信任把每一层问一遍：不信任什么都不给，
// 信任时先是项目自己的资料，再按装的先后接上每个包的，同种同名的先来的算数。
type Res = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
const resNameArb = fc.constantFrom("a", "b", "commit", "__proto__");
const projectResArb: fc.Arbitrary<Res> = fc.record({ kind: fc.constantFrom<Res["kind"]>("agents", "skill", "prompt"), name: resNameArb, content: fc.string({ maxLength: 4 }) });
const packageResArb = fc.dictionary(
  fc.oneof(resNameArb.map((n) => `skills/${n}`), resNameArb.map((n) => `prompts/${n}`), fc.constant("AGENTS.md")),
  fc.string({ maxLength: 4 }),
  { maxKeys: 3 },
);

forLessonsFrom("s12", (id, load) => {
  it("装包不读资料（D40）；load(trust) 每层同一个信任，项目的在前、包按装的先后，同种同名先来的算数", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.array(projectResArb, { maxLength: 4 }), fc.array(packageResArb, { maxLength: 3 }), async (project, packages) => {
        const { agent } = makeAgent(id, mod, { provider: okProvider(id), resources: project });
        const base = agent.loader;
        if (base === undefined) throw new Error("s12 has a loader");
        const asked: string[] = [];
        agent.loader = { load: (trust) => (asked.push(String(trust)), base.load(trust)) };
        const expected: Res[] = project.map((r) => ({ ...r }));
        for (const [k, contents] of packages.entries()) {
          const name = `p${k}`;
          mod.installPackage(agent, mod.loadPackage({ manifest: { name, tools: [], commands: [], resources: Object.keys(contents) }, contents }));
          const taken = new Set(expected.map((r) => `${r.kind}:${r.name}`));
          for (const [file, content] of Object.entries(contents)) {
            const r: Res = file === "AGENTS.md" ? { kind: "agents", name: `${name}/AGENTS.md`, content } : { kind: file.startsWith("skills/") ? "skill" : "prompt", name: file.replace(/^(skills|prompts)\//, ""), content };
            if (!taken.has(`${r.kind}:${r.name}`)) expected.push(r);
          }
        }
        expect(asked, "installing reads no resources").toEqual([]);
        expect(agent.loader?.load("untrusted")).toEqual([]);
        expect(agent.loader?.load("trusted")).toEqual(expected);
        expect(asked, "every load asks the layer below once, with the same trust").toEqual(["untrusted", "trusted"]);
      }),
      params,
    );
  });
});
