// 毕业练习的真实 Pi 一侧：学习者写的扩展（或包）装进 pi-coding-agent 1.6.0，照练习的对话跑一轮，记下 Pi 做了什么。
// 会话由 pi-session.ts 开（和机制剧本同一个办法）：扩展像命令行的 -e 一样加载；包照 `pi install -l` 的样子写在项目的
// .pi/settings.json 里，Pi 只在项目被信任时读它。要 Node ≥ 22.19，只在 graduate-side.ts 起的 Node 24 子进程里加载。

import type { DefaultResourceLoader } from "@earendil-works/pi-coding-agent";
import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { type Exercise, exercise, type RunPlan } from "../tooling/graduation/exercises.ts";
import type { GateAnswer, GraduationJob, LearnerExtension, PiRun } from "../tooling/graduation/runs.ts";
import { normalisePi } from "./compare.ts";
import { openSession } from "./pi-session.ts";
import { llmMessages } from "./scripted-model.ts";

/** 一个练习在真实 Pi 上跑完（练习 3 跑两次：项目被信任、不被信任）。 */
export async function runPiGraduation(job: GraduationJob): Promise<PiRun[]> {
  const ex = exercise(job.exercise);
  const runs: PiRun[] = [];
  for (const plan of ex.runs) runs.push(await runOnce(ex, plan, job));
  return runs;
}

async function runOnce(ex: Exercise, plan: RunPlan, job: GraduationJob): Promise<PiRun> {
  const isPackage = ex.n === 3;
  const extensionPaths = isPackage ? [] : [job.target, ...(ex.n === 2 ? [job.rmTool] : [])];
  const open = await openSession({
    dirs: { cwd: job.cwd, agentDir: job.agentDir },
    trusted: plan.trusted,
    read: true,
    extensionPaths,
    settings: isPackage ? "disk" : "memory",
  });
  const mine = (path: string): boolean => resolve(path) === resolve(job.target) || resolve(path).startsWith(resolve(job.target) + sep);
  const learner = learnerExtensions(open.loader, mine);
  const gate = recordGate(open.loader, mine);
  open.answer = (n, prompt) => ex.dialogue.reply(n, prompt);
  try {
    await open.session.prompt(ex.dialogue.input);
  } catch (error) {
    open.problems.push(`这一轮没跑完：${error instanceof Error ? error.message : String(error)}`);
  }
  const history = normalisePi(llmMessages(open.session.messages));
  open.session.dispose();
  const files = Object.fromEntries(ex.watch.map((f) => [f, existsSync(join(job.cwd, f))]));
  return { label: plan.label, history, prompts: open.prompts, problems: open.problems, learner, gate, files };
}

/** Pi 装上的扩展里，学习者写的那些：各登记了哪些工具（连同参数的 schema）、订阅了哪些事件。 */
function learnerExtensions(loader: DefaultResourceLoader, mine: (path: string) => boolean): LearnerExtension[] {
  return loader
    .getExtensions()
    .extensions.filter((e) => mine(e.path))
    .map((e) => ({
      path: e.path,
      tools: [...e.tools.values()].map((t) => ({ name: t.definition.name, parameters: JSON.parse(JSON.stringify(t.definition.parameters ?? null)) as unknown })),
      events: [...e.handlers.keys()],
    }));
}

/**
 * 学习者的 tool_call 监听每次回了什么：Pi 只看回答里的 block，回答别的样子（比如 mini Pi 的 {type: "block"}）就是放行，
 * 报告要能说出「你回的是什么」。做法是把监听包一层：照常把回答交给 Pi，顺手记下一份。
 */
function recordGate(loader: DefaultResourceLoader, mine: (path: string) => boolean): GateAnswer[] {
  const answers: GateAnswer[] = [];
  for (const ext of loader.getExtensions().extensions.filter((e) => mine(e.path))) {
    const handlers = ext.handlers.get("tool_call");
    if (handlers === undefined) continue;
    handlers.forEach((handler, i) => {
      handlers[i] = async (event, ctx) => {
        const toolName = (event as { toolName?: unknown }).toolName;
        const answer: unknown = await handler(event, ctx);
        answers.push({ toolName: String(toolName), answered: answer === undefined ? "undefined" : describe(answer) });
        return answer;
      };
    });
  }
  return answers;
}

const describe = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};
