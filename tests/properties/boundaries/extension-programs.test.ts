// 性质测试（fast-check），R4 每道边界（issue 13），第 6–8 类：名字、loader、扩展。
// 不是挑几个例子，而是让 fast-check 随便编输入，看循环守不守得住它的承诺；失败时它把反例缩到最小再打印（Counterexample: …，以及 seed/path）。
// 共同的断言：runOneTurn 一定 resolve；存下的每条助手消息 stopReason 合法；每个执行了的调用恰好一条带模型给的 id 的结果；
// 历史不交错、能被 structuredClone；之后再跑一轮普通的对话照样成功（expectSoundHistory + ordinaryTurnAfter）。
import fc from "fast-check";
import { expect, it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { ExtensionApiLike, Runtime, ToolLike } from "../../tooling/lesson.ts";
import { text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { type Hostile, expectSoundHistory, nameArb, returnedArb, settle, thrownArb } from "../support/hostile.ts";
import { BOUNDARY_RUNS, okProvider, ordinaryTurnAfter, thenable, watchUnhandled } from "./common.ts";

// ── 第 6 类：按不可信的名字查东西，摸不到 Object.prototype（s02 起） ──
forLessonsFrom("tools", (id, load) => {
  it("R4 第 6 类：任意名字（含 __proto__、constructor、toString）：演示工具的路径、工具名、模型名、命令名、包里的名字，要么查到自己的，要么是清楚的「没有」", async () => {
    const mod = await load();
    // 包那一段：装上的和拒绝的各数一数。一个次次都拒绝的 installPackage 也会走「什么都没变」那条路，得另外挡住
    const packages = { installed: new Set<string>(), refused: 0 };
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
        fastExpect(out).toBe(known ? mod.DEMO_FILES[name] : `no such file: ${name}`);
        if (!has(id, "toolLoop")) return;

        // 工具名：registry 里只有 echo
        const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "c1", name, input: { text: "x" } }) : text("done")));
        const built = makeAgent(id, mod, { provider, tools: [echoTool("echo").tool] });
        await mod.runOneTurn(built.agent, "go");
        fastExpect(built.messages().filter((m) => m.role === "toolResult").map((m) => m.content)).toEqual([name === "echo" ? "echo:x" : `error: unknown tool "${name}"`]);
        expectSoundHistory(id, built.messages());

        if (has(id, "model")) {
          // 模型名：providers 只有自己的键才算
          const { agent } = makeAgent(id, mod, { provider: okProvider(id, "default") });
          agent.providers = { special: okProvider(id, "special") };
          if (name === "special" || name === "constructor") agent.providers[name] = okProvider(id, `own ${name}`);
          agent.state.model = name;
          const reply = await mod.runOneTurn(agent, "go");
          fastExpect(reply.content).toBe(Object.hasOwn(agent.providers, name) ? `own ${name}` : "default");
        }
        if (has(id, "extensions")) {
          const { agent } = makeAgent(id, mod, { provider: okProvider(id) });
          agent.runtime?.use((api) => api.registerCommand({ name: "known", run: () => "ran" }));
          fastExpect(agent.runtime?.runCommand(name)).toBe(name === "known" ? "ran" : `error: unknown command "${name}"`);
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
          if (installed) packages.installed.add(name);
          else packages.refused++;
          if (installed) {
            fastExpect(agent.registry?.getSpecs().map((s) => s.name)).toEqual([name]);
            fastExpect(agent.runtime?.runCommand(name)).toBe("t {x}");
            fastExpect(agent.loader?.load("trusted").map((r) => r.name)).toEqual([name]);
          } else {
            fastExpect(JSON.stringify([agent.registry?.getSpecs(), agent.loader?.load("trusted"), agent.packages]), "a refused package changes nothing").toBe(before);
          }
        }
      }),
      BOUNDARY_RUNS,
    );
    // 原型上的名字正是这一类要验的：constructor、toString 得真的装得上，而不是都被拒绝。
    // __proto__ 例外：zod 4 的 z.record 校验时丢掉这个键，包就以「contents 里没有这一项」被拒（安全，见 EVOLUTION.md §8）
    if (has(id, "packages")) expect(["constructor", "toString"].filter((n) => packages.installed.has(n)), `refused ${packages.refused}`).toEqual(["constructor", "toString"]);
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
        if (reply.stopReason === "error") fastExpect(reply.content).toMatch(/^error: could not start the turn: /);
        else fastExpect(reply).toEqual({ role: "assistant", content: "fine", stopReason: "stop" });
        fastExpect(messages().at(-1)).toEqual(reply);
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
