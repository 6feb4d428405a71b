// 性质测试（fast-check），R4 每道边界的第 4 类：钩子出了岔子就按拦下处理（s05 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import type { Hooks } from "../../../tooling/lesson.ts";
import { text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { type Hostile, anyData, expectSoundHistory, makeQuietly, nameArb, RETURNED, returnedArb, settle } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, ordinaryTurnAfter, str, watchUnhandled } from "../common.ts";

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
