// npm run live -- "问题"：完整的 s12 mini Pi，换上真实模型，在当前目录里回答一个问题。
// 设置全部来自环境变量（见 live/README.md）；缺了就说清缺什么并以非零退出，不发任何请求。
// 课里的一切照旧：runOneTurn → 快照 → 工具循环 → 钩子 → 会话树 → PrintMode。换掉的只有 provider 和工具。
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type Agent,
  type ContextResource,
  type Output,
  ExtensionRuntime,
  PrintMode,
  ResourceLoader,
  SessionTree,
  ToolRegistry,
  consoleOutput,
  createPermissionGate,
  runOneTurn,
} from "../s12_packages/code.ts";
import { ENV, type LiveConfig, displayUrl, readLiveConfig } from "./config.ts";
import { OpenAICompatibleProvider } from "./openai.ts";
import { DEFAULT_LIMITS, createWorkspaceTools } from "./tools.ts";

/** runLive 碰外界的全部途径，测试里换成数组和假环境。 */
export type LiveIO = {
  /** 最终回答（PrintMode 写到这里）。 */
  stdout: Output;
  /** 设置问题、开场一行、每次工具调用的进度。 */
  stderr: Output;
  env: Record<string, string | undefined>;
  /** 工具能看到的目录。 */
  cwd: string;
  /** 外面喊停（Ctrl+C）。 */
  signal?: AbortSignal;
};

export const USAGE = '用法：npm run live -- "你的问题"';

/** 设置不全时打的说明：缺什么、怎么设，再给一个能直接抄的例子。 */
export function configHelp(problems: string[]): string[] {
  return [
    "mini Pi 的真实模型模式还不能启动，缺这些设置：",
    ...problems.map((p) => `  - ${p}`),
    "例如（本机的 Ollama）：",
    `  ${ENV.baseUrl}=http://127.0.0.1:11434/v1 ${ENV.model}=qwen2.5-coder:7b npm run live -- "这个项目是做什么的？"`,
  ];
}

/** 工作目录里的 AGENTS.md（有的话），作为项目说明。加载与否仍由 trust 决定（R6）。 */
function projectResources(cwd: string): ContextResource[] {
  const path = join(cwd, "AGENTS.md");
  if (!existsSync(path) || !statSync(path).isFile() || statSync(path).size > DEFAULT_LIMITS.maxFileBytes) return [];
  return [{ kind: "agents", name: "AGENTS.md", content: readFileSync(path, "utf8") }];
}

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
};

/** 按设置拼一个完整的 s12 Agent：真实 provider、三个只读工具、AGENTS.md、打码钩子、PrintMode。 */
export function createLiveAgent(config: LiveConfig, io: LiveIO): Agent {
  const registry = new ToolRegistry();
  for (const tool of createWorkspaceTools(io.cwd)) registry.register(tool);
  const gate = createPermissionGate(); // s05 的权限闸：读到的内容里像 sk-… 的串打上码
  const key = config.apiKey;
  return {
    state: { messages: new SessionTree(), model: config.model },
    provider: new OpenAICompatibleProvider({ ...config, signal: io.signal }),
    output: io.stdout,
    registry,
    hooks: {
      afterToolCall: (call, result) => {
        let masked = gate.afterToolCall?.(call, result) ?? result;
        if (key !== undefined) masked = masked.split(key).join("***");
        io.stderr.log(`  → ${call.name} ${JSON.stringify(call.input)}`);
        io.stderr.log(`  ← ${masked.startsWith("error: ") ? oneLine(masked) : `${[...masked].length} chars`}`);
        return masked;
      },
    },
    loader: new ResourceLoader(projectResources(io.cwd)),
    runtime: new ExtensionRuntime(registry),
    mode: new PrintMode(io.stdout),
    trust: config.trust,
    packages: [],
  };
}

/**
 * 跑一次：读设置，问一个问题，打印最终回答。返回退出码：0 答完了，1 回答以出错告终，
 * 2 设置不全或没给问题（没发任何请求），130 被喊停。
 */
export async function runLive(args: string[], io: LiveIO): Promise<number> {
  const read = readLiveConfig(io.env);
  const question = args.join(" ").trim();
  if (!read.ok) {
    for (const line of configHelp(read.problems)) io.stderr.log(line);
    return 2;
  }
  if (question === "") {
    io.stderr.log(USAGE);
    return 2;
  }
  const { config } = read;
  const agent = createLiveAgent(config, io);
  io.stderr.log(`mini Pi · 模型 ${config.model} @ ${displayUrl(config.baseUrl)} · 工作目录 ${io.cwd}`);
  if (agent.loader.load("trusted").length > 0) {
    io.stderr.log(
      config.trust === "trusted"
        ? `AGENTS.md 已加载（${ENV.trust}=trusted）`
        : `AGENTS.md 没有加载：项目默认不信任，确认它可信后设 ${ENV.trust}=trusted`,
    );
  }
  const reply = await runOneTurn(agent, question);
  if (io.signal?.aborted === true) return 130;
  return reply.stopReason === "error" ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  process.exitCode = await runLive(process.argv.slice(2), {
    stdout: consoleOutput,
    stderr: { log: (line) => console.error(line) },
    env: process.env,
    // npm run 会把工作目录换成仓库根目录，INIT_CWD 才是用户敲命令的地方。
    cwd: process.env.INIT_CWD ?? process.cwd(),
    signal: controller.signal,
  });
}
