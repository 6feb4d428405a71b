// npm run -s live -- "问题"：完整的 s12 mini Pi，换上真实模型，在当前目录里回答一个问题。
// 设置全部来自环境变量（见 live/README.md）；缺了就说清缺什么并以非零退出，不发任何请求。
// 课里的一切照旧：runEventedToolLoop → 快照 → 工具循环 → 钩子 → 会话树 → 运行模式。换掉的是 provider、工具，
// 以及运行模式：回答边到边打（terminal.ts），不再等一轮结束。
import { pathToFileURL } from "node:url";
import {
  type Agent,
  type AssistantMessage,
  type Output,
  ExtensionRuntime,
  ResourceLoader,
  SessionTree,
  createPermissionGate,
  runEventedToolLoop,
} from "../s12_packages/code.ts";
import type { ClockTimers } from "./clock.ts";
import { ENV, type LiveConfig, displayUrl, readLiveConfig } from "./config.ts";
import { OpenAICompatibleProvider } from "./openai.ts";
import { PROJECT_NOTES, readProjectNotes } from "./project.ts";
import { maskSecret, maskThenShorten } from "./redact.ts";
import { AnswerStream, StreamedMode, type TextWriter } from "./terminal.ts";
import { LiveToolRegistry, createWorkspaceTools } from "./tools.ts";

/** runLive 碰外界的全部途径，测试里换成数组和假环境。 */
export type LiveIO = {
  /** 模型的回答，边到边写（不自动换行）。 */
  stdout: TextWriter;
  /** 设置问题、开场一行、每次工具调用的进度、出错和没答完的原因。 */
  stderr: Output;
  env: Record<string, string | undefined>;
  /** 工具能看到的目录。 */
  cwd: string;
  /** 外面喊停（Ctrl+C）。 */
  signal?: AbortSignal;
  /** 请求的两只表靠什么计时；不给就是真的时间。 */
  timers?: ClockTimers;
};

/** 退出码。live/README.md 的退出码表由测试逐项对照这里。 */
export const EXIT = {
  /** 答完了。 */
  answered: 0,
  /** 回答以出错告终（已收到的文字照样打在 stdout，错误那一行在 stderr）。 */
  failed: 1,
  /** 设置不全或没给问题，一个请求也没发。 */
  setup: 2,
  /** 问满了 MINI_PI_MAX_TURNS 次，模型还在要工具，没有回答。 */
  maxTurns: 3,
  /** 按了 Ctrl+C。 */
  interrupted: 130,
} as const;

export const LIVE_USAGE = '用法：npm run -s live -- "你的问题"';

/** 设置不全时打的说明：缺什么、怎么设，再给一个能直接抄的例子。 */
export function configHelp(problems: string[]): string[] {
  return [
    "mini Pi 的真实模型模式还不能启动，缺这些设置：",
    ...problems.map((p) => `  - ${p}`),
    "例如（本机的 Ollama）：",
    `  ${ENV.baseUrl}=http://127.0.0.1:11434/v1 ${ENV.model}=qwen2.5-coder:7b npm run -s live -- "这个项目是做什么的？"`,
  ];
}

/** 问满次数时对用户说的话：没有回答，以及怎么放宽上限。 */
export function maxTurnsMessage(maxTurns: number): string {
  return `没有回答：模型连着要了 ${maxTurns} 次工具还没说完，到了 ${ENV.maxTurns} 的上限（${maxTurns}）。想让它多查几次，就调大它，如 ${ENV.maxTurns}=${maxTurns * 2}`;
}

/** 拼好的一次运行：agent 本身，终端上打了什么，以及要先告诉用户的话（比如 AGENTS.md 为什么没加载）。 */
export type LiveAgent = { agent: Agent; answers: AnswerStream; notices: string[] };

/** 按设置拼一个完整的 s12 Agent：真实 provider（外面套一层边到边打）、三个只读工具、AGENTS.md、打码钩子、StreamedMode。 */
export function createLiveAgent(config: LiveConfig, io: LiveIO): LiveAgent {
  const key = config.apiKey;
  const stderr: Output = { log: (line) => io.stderr.log(maskSecret(line, key)) };
  const provider = new OpenAICompatibleProvider({ ...config, signal: io.signal, timers: io.timers, onThinking: () => stderr.log("  … 模型在思考") });
  const registry = new LiveToolRegistry((id) => provider.argumentProblem(id));
  for (const tool of createWorkspaceTools(io.cwd)) registry.register(tool);
  const gate = createPermissionGate(); // s05 的权限闸：读到的内容里像 sk-… 的串打上码
  const answers = new AnswerStream(io.stdout, key);
  const notes = readProjectNotes(io.cwd);
  const agent: Agent = {
    state: { messages: new SessionTree(), model: config.model },
    provider: answers.wrap(provider),
    output: stderr, // core 自己从不往这里写（R7）；真要写，也只能写到 stderr，stdout 只留给回答
    registry,
    hooks: {
      afterToolCall: (call, result) => {
        const masked = maskSecret(gate.afterToolCall?.(call, result) ?? result, key);
        stderr.log(`  → ${call.name} ${JSON.stringify(call.input)}`);
        stderr.log(`  ← ${masked.startsWith("error: ") ? maskThenShorten(masked.replace(/\s+/g, " ").trim(), key, 160) : `${[...masked].length} chars`}`);
        return masked;
      },
    },
    loader: new ResourceLoader(notes.resources),
    runtime: new ExtensionRuntime(registry),
    mode: new StreamedMode(),
    trust: config.trust,
    packages: [],
  };
  return { agent, answers, notices: notes.notice === undefined ? [] : [notes.notice] };
}

/** 问一次：就是 s12 的 runOneTurn（存下用户消息，交给工具循环），只是把循环的上限换成设置里的 maxTurns。 */
export function ask(agent: Agent, question: string, maxTurns: number): Promise<AssistantMessage> {
  agent.state.messages.append({ role: "user", content: question });
  return runEventedToolLoop(agent, maxTurns);
}

/**
 * 跑一次：读设置，问一个问题，回答边到边打在 stdout。返回退出码（见 EXIT）。
 * stdout 上只有模型说的话；其余一切（开场一行、工具进度、出错原因、没答完的原因）都在 stderr。
 */
export async function runLive(args: string[], io: LiveIO): Promise<number> {
  const read = readLiveConfig(io.env);
  const question = args.join(" ").trim();
  if (!read.ok) {
    for (const line of configHelp(read.problems)) io.stderr.log(line);
    return EXIT.setup;
  }
  if (question === "") {
    io.stderr.log(LIVE_USAGE);
    return EXIT.setup;
  }
  const { config } = read;
  const stderr: Output = { log: (line) => io.stderr.log(maskSecret(line, config.apiKey)) };
  const { agent, answers, notices } = createLiveAgent(config, io);
  stderr.log(`mini Pi · 模型 ${config.model} @ ${displayUrl(config.baseUrl)} · 工作目录 ${io.cwd}`);
  for (const notice of notices) stderr.log(notice);
  if (agent.loader.load("trusted").length > 0) {
    stderr.log(
      config.trust === "trusted"
        ? `${PROJECT_NOTES} 已加载（${ENV.trust}=trusted）`
        : `${PROJECT_NOTES} 没有加载：项目默认不信任，确认它可信后设 ${ENV.trust}=trusted`,
    );
  }

  const reply = await ask(agent, question, config.maxTurns);
  if (reply.stopReason === "error") {
    // 收到的文字已经打在 stdout 了；消息里剩下的是 collectAssistantMessage 接上的那行 error
    const rest = reply.content.startsWith(answers.shown) ? reply.content.slice(answers.shown.length).replace(/^\n/, "") : reply.content;
    stderr.log(rest);
    return io.signal?.aborted === true ? EXIT.interrupted : EXIT.failed;
  }
  if (io.signal?.aborted === true) return EXIT.interrupted;
  // 循环以一段要了工具的回答结束，这一轮的最后一条却不是它：那是工具循环问满次数后补的 "max turns reached"
  if (reply.stopReason === "stop" && answers.lastStop === "toolUse") {
    stderr.log(maxTurnsMessage(config.maxTurns));
    return EXIT.maxTurns;
  }
  return EXIT.answered;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  process.exitCode = await runLive(process.argv.slice(2), {
    stdout: { write: (text) => process.stdout.write(text) },
    stderr: { log: (line) => console.error(line) },
    env: process.env,
    // npm run 会把工作目录换成仓库根目录，INIT_CWD 才是用户敲命令的地方。
    cwd: process.env.INIT_CWD ?? process.cwd(),
    signal: controller.signal,
  });
}
