// 性质测试（fast-check），R4 每道边界的第 8 类：扩展从不悄悄丢活（s09 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent } from "../../../tooling/assemble-agent.ts";
import type { ExtensionApiLike, Runtime, ToolLike } from "../../../tooling/lesson.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { type Hostile, expectSoundHistory, returnedArb, settle, thrownArb } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, brokenToolArb, okProvider, thenable, watchUnhandled } from "../common.ts";

// 任意的扩展程序：登记工具（可能坏、可能重名）、命令、监听，嵌套 use 别的扩展，抛任意值，返回任意值，或者是 async 的
// （await 前后都登记）。use() 从不抛错；每个扩展要么整个装上，要么一样不留并在 errors 里记一条（D30）。
type ExtStep =
  | { op: "tool"; name: string; malformed: boolean; bad?: unknown }
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
    { weight: 4, arbitrary: fc.record({ op: fc.constant("tool" as const), name: fc.constantFrom("a", "b", "__proto__"), malformed: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 4, arbitrary: fc.constant(false) }), bad: brokenToolArb.map((b) => b.tool) }) },
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
      else if (step.op === "tool") api.registerTool(step.malformed ? (step.bad as ToolLike) : echoTool(step.name).tool);
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
          fastExpect(() => runtime.use(buildExt(plan, `ext${i}`, runtime, heard) as (api: ExtensionApiLike) => void), "use() never throws").not.toThrow();
        }
        for (const later of world.later) later();
        await settle();
        fastExpect(watch.stop(), "no unhandled rejections").toEqual([]);
        fastExpect(agent.registry?.getSpecs().map((s) => s.name).sort(), "tools").toEqual([...world.tools].sort());
        for (const name of EXT_NAMES) {
          fastExpect(runtime.runCommand(name), `command ${name}`).toBe(name === "a" ? "pre" : world.commands.includes(name) ? `cmd ${name}` : `error: unknown command "${name}"`);
        }
        fastExpect(runtime.errors, "one error per extension that was not installed").toHaveLength(world.errors);
        for (const e of runtime.errors) fastExpect(e).toMatch(/^error: extension ".*" failed to load: /s);
        runtime.emit({ type: "message", content: "m" });
        fastExpect(heard.sort(), "only installed extensions hear events").toEqual([...world.heard].sort());
        await mod.runOneTurn(agent, "go");
        expectSoundHistory(id, messages());
      }),
      BOUNDARY_RUNS,
    );
  });
});
