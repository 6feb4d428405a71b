// 性质测试共用的：运行次数和 seed、短字符串、边界性质的运行次数、「之后再跑一轮普通对话」这几个小函数，和不是字符串的值、坏工具这两个生成器。
// 默认用固定的 seed，npm test 每次跑的是同一批用例；FC_SEED=<数字> 复现某次失败，FC_SEED=random 每次换一批。
// 运行次数：FC_NUM_RUNS（默认 150），整套性质测试在两三秒内跑完。
import fc from "fast-check";
import { fastExpect } from "../support/fast-expect.ts";
import { has } from "../../tooling/features.ts";
import type { LessonModule, Msg, ProviderLike, TestAgent } from "../../tooling/lesson.ts";
import { expectSoundHistory } from "../support/hostile.ts";

export const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 150);
export const SEED = process.env.FC_SEED === "random" ? undefined : Number(process.env.FC_SEED ?? 20240607);
export const params = { numRuns: NUM_RUNS, seed: SEED };

/** 短字符串，空串单独加权：空的 text_delta、空参数这些边界要常出现。 */
export const str = fc.oneof(fc.constant(""), fc.string({ maxLength: 8 }));

/** 每道边界的性质（tests/properties/boundaries/）跑的次数：比循环的性质少，每次都要再跑一轮普通对话。 */
export const BOUNDARY_RUNS = { numRuns: Math.max(20, Math.round(NUM_RUNS / 3)), seed: SEED };

/** 一个只说 "ok" 的 provider：s01–s02 用 complete，之后用 stream。 */
export function okProvider(id: string, reply = "ok"): ProviderLike {
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
export async function ordinaryTurnAfter(id: string, mod: LessonModule, agent: TestAgent, messages: () => Msg[]): Promise<void> {
  const lines: string[] = [];
  agent.provider = okProvider(id, "after ok");
  agent.output = { log: (line) => void lines.push(line) };
  if (has(id, "resources")) agent.loader = new mod.ResourceLoader([]);
  if (has(id, "modes")) agent.mode = new mod.PrintMode(agent.output);
  const before = messages().length;
  const reply = await mod.runOneTurn(agent, "after");
  fastExpect(reply, "the ordinary turn afterwards").toEqual({ role: "assistant", content: "after ok", stopReason: "stop" });
  fastExpect(messages().slice(before), "the ordinary turn stored exactly its question and answer").toEqual([{ role: "user", content: "after" }, reply]);
  fastExpect(lines.join("\n")).toContain("after ok");
  expectSoundHistory(id, messages());
}

/** 收集这一段时间里没人处理的 reject；core 不等的 Promise 必须自己接住失败。 */
export function watchUnhandled(): { stop: () => unknown[] } {
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

/** 等一轮宏任务（20 毫秒）：没人接的 Promise 失败在这之前报给 watchUnhandled。 */
export const waitForUnhandled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

/** 这个值会不会被当成 Promise（有 then 方法，读 then 本身不抛错）。 */
export const thenable = (v: unknown): boolean => {
  try {
    return typeof (v as { then?: unknown } | null | undefined)?.then === "function";
  } catch {
    return false;
  }
};

/** 不是字符串的参数值：都是读了不会抛错的普通值。 */
export const notStringArb = fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), fc.boolean(), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), fc.constant({ nested: "x" }), fc.constant(1n));

/** 一个好工具，坏在一处（或者整个就不是工具）。 */
export const brokenToolArb: fc.Arbitrary<{ label: string; tool: unknown; path: string }> = fc.oneof(
  fc.anything().filter((v) => typeof v !== "object" || v === null).map((tool) => ({ label: "not an object", tool, path: "tool" })),
  // 没有 spec，或者 spec 本身不是对象（数组也不算）：先要认出它不是工具，不能先去读 spec.name
  fc.oneof(fc.constant(undefined), fc.anything().filter((v) => typeof v !== "object" || v === null || Array.isArray(v))).map((spec) => ({ label: "spec", tool: spec === undefined ? { handler: () => "x" } : { spec, handler: () => "x" }, path: "spec" })),
  notStringArb.map((name) => ({ label: "name", tool: { spec: { name, description: "d", input: {} }, handler: () => "x" }, path: "spec.name" })),
  notStringArb.map((description) => ({ label: "description", tool: { spec: { name: "n", description, input: {} }, handler: () => "x" }, path: "spec.description" })),
  fc.oneof(fc.constant(null), fc.constant("path"), fc.integer()).map((input) => ({ label: "input", tool: { spec: { name: "n", description: "d", input }, handler: () => "x" }, path: "spec.input" })),
  notStringArb.filter((v) => v !== undefined).map((v) => ({ label: "input value", tool: { spec: { name: "n", description: "d", input: { path: v } }, handler: () => "x" }, path: "spec.input.path" })),
  fc.oneof(fc.constant(null), fc.constant("handler"), fc.constant({})).map((handler) => ({ label: "handler", tool: { spec: { name: "n", description: "d", input: {} }, handler }, path: "handler" })),
);
