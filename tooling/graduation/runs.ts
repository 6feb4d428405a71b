// 一次毕业检查里两边交出来的东西：只有数据，能写成 JSON（真实 Pi 一侧在 Node 24 子进程里跑完，写进结果文件交回来）。
import type { FidelityTrace } from "../../fidelity/compare.ts";
import type { ExerciseNumber } from "./exercises.ts";

/** 交给 Pi 子进程的任务：哪个练习、学习者的文件（或包的文件夹）、演示用的 rm 工具、目录。 */
export type GraduationJob = { exercise: ExerciseNumber; target: string; rmTool: string; cwd: string; agentDir: string };

/** 学习者的一个扩展，照 Pi 装载它以后的样子：登记了哪些工具（带参数的 schema）、订阅了哪些事件。 */
export type LearnerExtension = { path: string; tools: { name: string; parameters: unknown }[]; events: string[] };

/** 学习者的 tool_call 监听每次回了什么（JSON 写法；undefined 写成 "undefined"）。 */
export type GateAnswer = { toolName: string; answered: string };

/** 真实 Pi 跑完一次对话。 */
export type PiRun = {
  label: string;
  /** 存下的消息（fidelity/compare.ts 的归一写法）。 */
  history: FidelityTrace;
  /** 每次请求时模型拿到的系统提示。 */
  prompts: string[];
  /** 装载和运行时报出来的问题，每条一句（路径已经换成给人看的写法）。 */
  problems: string[];
  learner: LearnerExtension[];
  gate: GateAnswer[];
  /** 跑完以后还在不在的文件（相对工作目录）。 */
  files: Record<string, boolean>;
};

/** Pi 一侧的结果：跑成了，或者 Pi 一侧自己抛错了（不是学习者的错，报告会照实说）。 */
export type PiGraduation = { node: string; runs: PiRun[] } | { node: string; error: string };

/** mini Pi（s12）跑完同一段对话。 */
export type MiniRun = { label: string; history: FidelityTrace; prompts: string[] };
