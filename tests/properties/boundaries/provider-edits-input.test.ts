// 性质测试（fast-check），R4 每道边界（issue 13），第 3–5 类：工具契约、钩子、provider 改了手上的输入。
// 不是挑几个例子，而是让 fast-check 随便编输入，看循环守不守得住它的承诺；失败时它把反例缩到最小再打印（Counterexample: …，以及 seed/path）。
// 共同的断言：runOneTurn 一定 resolve；存下的每条助手消息 stopReason 合法；每个执行了的调用恰好一条带模型给的 id 的结果；
// 历史不交错、能被 structuredClone；之后再跑一轮普通的对话照样成功（expectSoundHistory + ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { Event, Hooks, Input, ProviderLike, ToolLike } from "../../tooling/lesson.ts";
import { type Step, text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { type Hostile, anyData, expectSoundHistory, makeQuietly, nameArb, RETURNED, returnedArb, settle } from "../support/hostile.ts";
import { BOUNDARY_RUNS, ordinaryTurnAfter, str, watchUnhandled } from "./common.ts";

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
        fastExpect(watch.stop(), "every Promise the core did not wait for had its failure caught").toEqual([]);
        const results = messages().filter((m) => m.role === "toolResult");
        fastExpect(results.map((m) => m.toolCallId)).toEqual(["c1"]);
        if (typeof returned === "string") fastExpect(results[0].content).toBe(returned);
        else fastExpect(results[0].content).toMatch(/^error: tool "h" returned .*, expected a string$/s);
        fastExpect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
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
        fastExpect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        fastExpect(messages().filter((m) => m.role === "toolResult").map((m) => m.content)).toEqual([
          key === "text"
            ? 'error: invalid arguments for tool "echo": argument "text" must be a string'
            : 'error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "extra"',
        ]);
        fastExpect(echo.calls).toEqual([]);
        if (!has(id, "modes")) fastExpect(lines.some((l) => l.startsWith("  → echo("))).toBe(true);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      { ...BOUNDARY_RUNS, numRuns: Math.min(BOUNDARY_RUNS.numRuns, 20) },
    );
  });
});

// 命令也一样（s09 起，D27）：runCommand 回的不是文字，就是一句 error: command "c" returned …, expected a string（s09 README），
// Promise 的失败被接住；回的是文字就原样交回。
forLessonsFrom("extensions", (_id, load) => {
  it("R4 第 3 类：命令回任何值：文字原样交回，别的变成 `error: command \"c\" returned <describeValue>, expected a string`；没有没人接的 reject", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(returnedArb, async (h) => {
        const runtime = new mod.ExtensionRuntime(new mod.ToolRegistry());
        let returned: unknown;
        runtime.use((api) =>
          api.registerCommand({
            name: "c",
            run: () => {
              returned = h.make();
              return returned as string;
            },
          }),
        );
        const watch = watchUnhandled();
        const result = runtime.runCommand("c");
        await settle();
        fastExpect(watch.stop(), "every Promise the core did not wait for had its failure caught").toEqual([]);
        fastExpect(result).toBe(typeof returned === "string" ? returned : `error: command "c" returned ${mod.describeValue(returned)}, expected a string`);
        fastExpect(runtime.errors, "a command's result is not an extension error").toEqual([]);
      }),
      BOUNDARY_RUNS,
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
          fastExpect(watch.stop()).toEqual([]);
          const results = messages().filter((m) => m.role === "toolResult");
          fastExpect(results.map((m) => m.toolCallId), "the result answers the call the model made").toEqual(["model-id"]);
          const v = decision.verdict;
          fastExpect(echo.calls.length, "the handler runs only after a well-formed allow").toBe(v === "allow" ? 1 : 0);
          // 读一下就抛错的答复（撤销了的 Proxy）说的是读它时的错；别的都写明回了什么
          if (v === "bad") fastExpect(results[0].content).toMatch(decision.label.includes("Proxy") ? /^error: hook failed: / : /^error: hook failed: beforeToolCall returned /);
          else if (v !== "allow") fastExpect(results[0].content).toBe(`error: blocked: ${v.block}`);
          else if (after === undefined || typeof afterValue === "string") fastExpect(results[0].content).toBe(after === undefined ? "echo:x" : afterValue);
          else fastExpect(results[0].content).toMatch(/^error: hook failed: afterToolCall returned .*, expected a string$/s);
          fastExpect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
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
        fastExpect(await runOnce(mutations)).toEqual(reference);
      }),
      BOUNDARY_RUNS,
    );
  });
});
