// 性质测试（fast-check），R4 每道边界的第 6 类：按不可信的名字查东西，摸不到 Object.prototype（s02 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { expect, it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import { has } from "../../../tooling/features.ts";
import type { LessonModule } from "../../../tooling/lesson.ts";
import { text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { expectSoundHistory, nameArb } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, okProvider } from "../common.ts";

/** 演示的 read 工具读模型给的路径 name：读到的文字，或它抛出的错误信息。 */
function readDemoFile(mod: LessonModule, name: string): unknown {
  const read = mod.createDemoTools().find((t) => t.spec.name === "read");
  try {
    return read?.handler({ path: name });
  } catch (error) {
    return error instanceof Error ? error.message : "?";
  }
}

/**
 * 装一个工具、命令、技能都叫 name 的包：要么整包装上、名字都查得到，要么整包拒绝、什么都没变。回答装上了没有。
 */
function installPackageNamed(id: string, mod: LessonModule, name: string): boolean {
  const { agent } = makeAgent(id, mod, { provider: okProvider(id) });
  const before = JSON.stringify([agent.registry?.getSpecs(), agent.loader?.load("trusted"), agent.packages]);
  const pkg = { manifest: { name: `p-${name}`, tools: [name], commands: [name], resources: [`skills/${name}`] }, contents: Object.fromEntries([[name, "t {x}"], [`skills/${name}`, "Skill."]]) };
  try {
    mod.installPackage(agent, mod.loadPackage(pkg));
  } catch {
    fastExpect(JSON.stringify([agent.registry?.getSpecs(), agent.loader?.load("trusted"), agent.packages]), "a refused package changes nothing").toBe(before);
    return false;
  }
  fastExpect(agent.registry?.getSpecs().map((s) => s.name)).toEqual([name]);
  fastExpect(agent.runtime?.runCommand(name)).toBe("t {x}");
  fastExpect(agent.loader?.load("trusted").map((r) => r.name)).toEqual([name]);
  return true;
}

forLessonsFrom("tools", (id, load) => {
  it("R4 第 6 类：任意名字（含 __proto__、constructor、toString）：演示工具的路径、工具名、模型名、命令名、包里的名字，要么查到自己的，要么是清楚的「没有」", async () => {
    const mod = await load();
    // 包那一段：装上的和拒绝的各数一数。一个次次都拒绝的 installPackage 也会走「什么都没变」那条路，得另外挡住
    const packages = { installed: new Set<string>(), refused: 0 };
    await fc.assert(
      fc.asyncProperty(nameArb, async (name) => {
        // 演示工具：路径是模型给的
        fastExpect(readDemoFile(mod, name)).toBe(Object.hasOwn(mod.DEMO_FILES, name) ? mod.DEMO_FILES[name] : `no such file: ${name}`);
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
          if (installPackageNamed(id, mod, name)) packages.installed.add(name);
          else packages.refused++;
        }
      }),
      BOUNDARY_RUNS,
    );
    // 原型上的名字正是这一类要验的：constructor、toString 得真的装得上，而不是都被拒绝。
    // __proto__ 例外：zod 4 的 z.record 校验时丢掉这个键，包就以「contents 里没有这一项」被拒（安全，见 EVOLUTION.md §8）
    if (has(id, "packages")) expect(["constructor", "toString"].filter((n) => packages.installed.has(n)), `refused ${packages.refused}`).toEqual(["constructor", "toString"]);
  });
});
