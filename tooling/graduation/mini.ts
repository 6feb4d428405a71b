// 毕业练习的 mini Pi 一侧：同一段对话交给完整的 mini Pi（s12），用的是它自己演示里的零件——
// 练习 1 是 createDemoTools 的 read，练习 2 再加上 createPermissionGate，练习 3 是装了同样两份资料的包（loadPackage、installPackage）。
// 拼 Agent 和照剧本出事件的 provider 复用 tooling/assemble-agent.ts（行为测试、保真对照用的也是它）；s12 只经 importLesson 和它导出的名字来用。

import { normaliseMini } from "../../fidelity/compare.ts";
import { toSteps } from "../../fidelity/mini-loop.ts";
import { EXHAUSTED } from "../../fidelity/scenarios.ts";
import { makeAgent, scriptedProvider } from "../assemble-agent.ts";
import { importLesson, type LessonModule } from "../lesson.ts";
import { AGENTS_TEXT, type Exercise, PACKAGE_NAME, type RunPlan, SKILL } from "./exercises.ts";
import type { MiniRun } from "./runs.ts";

const LESSON = "s12";

/** 练习 3 的包写成课程的格式：清单列出 AGENTS.md 和技能，内容里是同样的两份资料（技能的第一行是它的说明）。 */
export const housePackage = (): { manifest: { name: string; tools: string[]; commands: string[]; resources: string[] }; contents: Record<string, string> } => ({
  manifest: { name: PACKAGE_NAME, tools: [], commands: [], resources: ["AGENTS.md", `skills/${SKILL.name}`] },
  contents: { "AGENTS.md": AGENTS_TEXT, [`skills/${SKILL.name}`]: `${SKILL.description}\n${SKILL.body}` },
});

/** s12 演示的文件（Pi 一侧把它们原样写到磁盘上）。 */
export async function demoFiles(): Promise<Record<string, string>> {
  return { ...(await importLesson(LESSON)).DEMO_FILES };
}

/** 一个练习在 mini Pi 上跑完（练习 3 跑两次：项目被信任、不被信任）。 */
export async function runMiniGraduation(ex: Exercise): Promise<MiniRun[]> {
  const mod = await importLesson(LESSON);
  const runs: MiniRun[] = [];
  for (const plan of ex.runs) runs.push(await runOnce(mod, ex, plan));
  return runs;
}

async function runOnce(mod: LessonModule, ex: Exercise, plan: RunPlan): Promise<MiniRun> {
  const prompts: string[] = [];
  const calls: string[][] = [];
  const scripted = scriptedProvider(LESSON, (input, n) => {
    const prompt = input.systemPrompt ?? "";
    prompts.push(prompt);
    return toSteps(ex.dialogue.reply(n, prompt) ?? EXHAUSTED, calls);
  });
  const { agent, messages } = makeAgent(LESSON, mod, {
    provider: scripted.provider,
    tools: ex.n === 3 ? [] : mod.createDemoTools(),
    hooks: ex.n === 2 ? mod.createPermissionGate() : {},
    trust: plan.trusted ? "trusted" : "untrusted",
  });
  if (ex.n === 3) mod.installPackage(agent, mod.loadPackage(housePackage()));
  // 演示的 rm 会删 DEMO_FILES（模块里的状态）：跑完放回去，谁也不受影响
  const before = { ...mod.DEMO_FILES };
  try {
    await mod.runOneTurn(agent, ex.dialogue.input);
  } finally {
    for (const key of Object.keys(mod.DEMO_FILES)) delete mod.DEMO_FILES[key];
    Object.assign(mod.DEMO_FILES, before);
  }
  return { label: plan.label, history: normaliseMini(messages(), calls), prompts };
}
