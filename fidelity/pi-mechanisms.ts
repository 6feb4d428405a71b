// 机制剧本的真实 Pi 一侧：@earendil-works/pi-coding-agent 1.6.0 的 SessionManager、DefaultResourceLoader、
// 扩展装载器和 ExtensionRunner（经 AgentSession）、runPrintMode、项目信任、本地包。它要 Node ≥ 22.19，
// 所以只在 pi-side.ts 起的 Node 24 子进程里加载。模型换成照剧本出事件的流（scripted-model.ts 的 streamReply），不联网。

import { type AgentMessage } from "@earendil-works/pi-agent-core";
import { type Message, type TextContent, type ToolCall, type ToolResultMessage } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import {
  type AgentSessionRuntime,
  convertToLlm,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  ModelRuntime,
  runPrintMode,
  SessionManager,
  SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { join } from "node:path";
import { asRequest, normalisePi, type Observation, type FidelityTrace } from "./compare.ts";
import { type MechanismScenario, type TreeMessage } from "./mechanisms.ts";
import { commandLine, knownResources, messageEventLine, packageResources, jsonEvents, parsesAsJson, promptFacts, rawSeparators, treeObservation, type TreeState } from "./observe.ts";
import { type OpenSession, openSession, SESSION_MODEL, type SessionSetup, toolNames } from "./pi-session.ts";
import { extensionFile, type Journal, resetJournal, type ScenarioDirs, scenarioDirs } from "./project.ts";
import { assistantMessage, EXHAUSTED, llmMessages, SCRIPTED_MODEL, streamReply } from "./scripted-model.ts";

/** 当前这份日志：扩展文件在 Pi 的装载器里运行，往 globalThis.__fidelity 里记。 */
const journal = (): Journal => (globalThis as unknown as { __fidelity: Journal }).__fidelity;

const asPi = (messages: readonly AgentMessage[]): FidelityTrace => normalisePi(llmMessages(messages));
const textOf = (m: { content: unknown }): string =>
  typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((b: { type: string; text?: string }) => (b.type === "text" ? (b.text ?? "") : "")).join("") : "";

// ── s07：SessionManager ───────────────────────────────────
function toPiMessage(m: TreeMessage): Message {
  switch (m.role) {
    case "user":
      return { role: "user", content: m.text, timestamp: 0 };
    case "toolResult": {
      const result: ToolResultMessage = { role: "toolResult", toolCallId: m.callId, toolName: "read", content: [{ type: "text", text: m.text }], isError: m.isError ?? false, timestamp: 0 };
      return result;
    }
    case "assistant": {
      const content: (TextContent | ToolCall)[] = m.text === "" ? [] : [{ type: "text", text: m.text }];
      if ("error" in m) return assistantMessage(content, "error", m.error);
      for (const id of m.calls ?? []) content.push({ type: "toolCall", id, name: "read", arguments: { path: "README.md" } });
      return assistantMessage(content, m.stop ?? "stop");
    }
  }
}

function runTree(scenario: Extract<MechanismScenario, { mechanism: "s07" }>, dirs: ScenarioDirs): Observation {
  const sm = SessionManager.inMemory(dirs.cwd);
  const ids: string[] = [];
  let missing: TreeState["missing"];
  for (const step of scenario.steps) {
    if ("append" in step) ids.push(sm.appendMessage(toPiMessage(step.append)));
    else if ("branchTo" in step) sm.branch(ids[step.branchTo]);
    else if ("restart" in step) sm.resetLeaf();
    else {
      const before = sm.getLeafId();
      try {
        sm.branch("no-such-entry");
        missing = "没报错";
      } catch {
        missing = sm.getLeafId() === before ? "报错，叶子没动" : "报错，但叶子动了";
      }
    }
  }
  const entries = sm.getEntries().flatMap((e) => (e.type === "message" ? [e] : []));
  const position = (id: string | null): number | null => (id === null ? null : ids.indexOf(id));
  const context = sm.buildSessionContext().messages;
  return treeObservation({
    entries: asPi(entries.map((e) => e.message)),
    parents: entries.map((e) => position(e.parentId)),
    leaf: position(sm.getLeafId()),
    path: asPi(context),
    // 发给模型前，每个 provider 适配器都要先过 pi-ai 的 transformMessages
    sent: asRequest(normalisePi(transformMessages(convertToLlm(context), SCRIPTED_MODEL))),
    missing,
  });
}

// ── 会话：资料、扩展、包都经 DefaultResourceLoader 进 AgentSession（pi-session.ts） ──
/** 开会话之前先换一份空日志：扩展文件在装载时就往里记。 */
function openFresh(setup: SessionSetup): Promise<OpenSession> {
  resetJournal();
  return openSession(setup);
}

/** 跑命令：有这个命令就经 prompt("/名字") 跑它（和用户在输入框里敲的一样），看它记下了什么。 */
async function runCommands(open: OpenSession, names: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const name of names) {
    const before = journal().commands.length;
    if (open.session.extensionRunner.getCommand(name) !== undefined) await open.session.prompt(`/${name}`);
    lines.push(commandLine(name, journal().commands.slice(before).at(-1)?.[1]));
  }
  return lines;
}

// ── s08、s11：系统提示 ────────────────────────────────────
async function runPrompt(scenario: Extract<MechanismScenario, { mechanism: "s08" | "s11" }>, dirs: ScenarioDirs): Promise<Observation> {
  const trusted = scenario.mechanism === "s08" || scenario.trust === "trusted";
  const read = scenario.mechanism === "s11" || scenario.piTools.includes("read");
  const open = await openFresh({ dirs, trusted, read });
  const known = knownResources(dirs.dir, scenario.files);
  const prompt = open.session.systemPrompt;
  open.session.dispose();
  if (scenario.mechanism === "s08") {
    return { facts: promptFacts(prompt, known, ["项目说明", "技能", "技能条目带文件位置", "追加的话", "各部分的先后", "工作目录"], dirs.cwd), traces: {} };
  }
  const projectExtensions = open.loader.getExtensions().extensions.filter((e) => e.path.startsWith(join(dirs.cwd, ".pi")));
  return {
    facts: {
      ...promptFacts(prompt, known, ["项目说明", "技能", "追加的话"], dirs.cwd),
      项目扩展登记的工具: projectExtensions.flatMap((e) => [...e.tools.keys()]).sort(),
    },
    traces: {},
  };
}

// ── s09：扩展 ─────────────────────────────────────────────
async function runExtensions(scenario: Extract<MechanismScenario, { mechanism: "s09" }>, dirs: ScenarioDirs): Promise<Observation> {
  const extensionPaths = scenario.extensions.map((e) => extensionFile(dirs, e.name, scenario.foreign ? "course" : "pi"));
  if (scenario.gate !== undefined) extensionPaths.push(join(dirs.extensions, "gate.ts"));
  const open = await openFresh({ dirs, trusted: true, read: true, extensionPaths });
  const tools = toolNames(open.session);
  open.replies = [...scenario.replies];
  await open.session.prompt(scenario.input);
  const history = asPi(open.session.messages);
  const commands = await runCommands(open, scenario.commands);
  open.session.dispose();
  const listeners = scenario.extensions.filter((e) => e.listen);
  return {
    facts: {
      模型能用的工具: tools,
      命令: commands,
      ...(scenario.gate === undefined ? {} : { 钩子看到的调用: [...journal().gate] }),
      监听者看到的事件: listeners.flatMap((e) => (journal().events[e.name] ?? []).map((line) => `${e.name}: ${line}`)),
      记下的错误: [String(open.problems.length)],
    },
    traces: { 历史: { on: "history", pairing: true, trace: history } },
  };
}

// ── s10：runPrintMode ─────────────────────────────────────
type ModeScenario = Extract<MechanismScenario, { mechanism: "s10" }>;

/** runPrintMode 写出的东西：退出码、标准输出、标准错误。 */
type Printed = { code: number; stdout: string; stderr: string };

/** 跑 runPrintMode，接住它写到 stdout / stderr 的东西（它用 process.stdout.write 和 console.error）。 */
async function runMode(scenario: ModeScenario, dirs: ScenarioDirs): Promise<Observation> {
  resetJournal();
  const asked = { count: 0 };
  const runtime = await printModeRuntime(scenario, dirs, asked);
  const printed = await captureOutput(() => runPrintMode(runtime, { mode: scenario.mode, initialMessage: scenario.input }));
  const lines = printed.stdout.split("\n").filter((l) => l !== "");
  if (scenario.mode === "text") return { facts: textModeFacts(scenario, printed, lines, asked.count), traces: {} };
  return { facts: jsonModeFacts(printed.stdout, lines), traces: {} };
}

/**
 * runPrintMode 要的运行时：不加载任何资料，内置工具只留 read，模型照剧本回答。
 * asked.count 数模型被问了几次（出错的剧本要看重试有没有发生）。
 */
async function printModeRuntime(scenario: ModeScenario, dirs: ScenarioDirs, asked: { count: number }): Promise<AgentSessionRuntime> {
  const modelRuntime = await ModelRuntime.create({ authPath: join(dirs.agentDir, "auth.json"), modelsPath: join(dirs.agentDir, "models.json") });
  await modelRuntime.setRuntimeApiKey(SESSION_MODEL.provider, "scripted");
  return createAgentSessionRuntime(
    async (options) => {
      const services = await createAgentSessionServices({
        cwd: options.cwd,
        agentDir: options.agentDir,
        modelRuntime,
        // 重试照 Pi 的做法开着，只把次数和间隔调小，剧本不用等（差异表 F30）
        settingsManager: SettingsManager.inMemory({ retry: { enabled: true, maxRetries: 1, baseDelayMs: 1 } }),
        resourceLoaderOptions: { noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true },
      });
      const created = await createAgentSessionFromServices({
        services,
        sessionManager: options.sessionManager,
        model: SESSION_MODEL,
        thinkingLevel: "off",
        excludeTools: ["bash", "edit", "write"],
      });
      created.session.agent.streamFunction = () => streamReply(scenario.replies[asked.count++] ?? EXHAUSTED);
      return { ...created, services, diagnostics: services.diagnostics };
    },
    { cwd: dirs.cwd, agentDir: dirs.agentDir, sessionManager: SessionManager.inMemory(dirs.cwd) },
  );
}

/** 跑 run 的这段时间里，把 process.stdout / stderr 的 write 换成记录；跑完（抛出也算）一定换回去。 */
async function captureOutput(run: () => Promise<number>): Promise<Printed> {
  const out: string[] = [];
  const err: string[] = [];
  const capture =
    (into: string[]) =>
    (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
      into.push(String(chunk));
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") done();
      return true;
    };
  const [stdoutWrite, stderrWrite] = [process.stdout.write, process.stderr.write];
  process.stdout.write = capture(out) as typeof process.stdout.write;
  process.stderr.write = capture(err) as typeof process.stderr.write;
  let code: number;
  try {
    code = await run();
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  return { code, stdout: out.join(""), stderr: err.join("") };
}

/** text 模式看输出的每一行；剧本里 provider 出错时，再看错误说明写在哪、退出码、模型被问了几次。 */
function textModeFacts(scenario: ModeScenario, printed: Printed, lines: string[], asked: number): Observation["facts"] {
  const facts: Observation["facts"] = { 标准输出: lines };
  const failure = scenario.replies.find((r) => r.kind === "error");
  if (failure !== undefined) {
    facts["错误说明写在哪"] = [printed.stderr.includes(failure.message) ? "标准错误" : printed.stdout.includes(failure.message) ? "标准输出" : "哪儿都没有"];
    facts["退出码"] = [String(printed.code)];
    facts["问了模型几次"] = [String(asked)];
  }
  return facts;
}

/** json 模式看事件流的形状：每行是不是 JSON、开头、事件种类、读得出的消息、结尾、行分隔符有没有转义。 */
function jsonModeFacts(stdout: string, lines: string[]): Observation["facts"] {
  const events = jsonEvents(lines) as { type: string; message?: { role: string; content: unknown } }[];
  return {
    每行都能按JSON解析: [parsesAsJson(lines)],
    开头的会话头: [events[0]?.type === "session" ? "有" : "没有"],
    "事件种类（按第一次出现）": [...new Set(events.map((e) => e.type))],
    读得出的消息: events.flatMap((e) => (e.type === "message_end" && e.message !== undefined ? [messageEventLine(textOf(e.message), e.message.role)] : [])),
    最后一个事件: [events.at(-1)?.type ?? "（没有）"],
    "原样的 U+2028 / U+2029": [rawSeparators(stdout)],
  };
}

// ── s12：本地包 ───────────────────────────────────────────
async function runPackage(scenario: Extract<MechanismScenario, { mechanism: "s12" }>, dirs: ScenarioDirs): Promise<Observation> {
  const { pkg } = scenario;
  const pkgDir = join(dirs.packages, pkg.name);
  const extensionPaths = scenario.extensions.map((e) => extensionFile(dirs, e.name, "pi"));
  const open = await openFresh({ dirs, trusted: true, read: true, extensionPaths, packages: [pkgDir] });
  const tools = toolNames(open.session);
  const known = packageResources(pkg, pkgDir);
  const facts: Observation["facts"] = {
    模型能用的工具: tools,
    命令: await runCommands(open, scenario.commands),
    ...promptFacts(open.session.systemPrompt, known, ["技能"], dirs.cwd),
  };
  const traces: Observation["traces"] = {};
  if (scenario.input !== undefined) {
    open.replies.push(...(scenario.replies ?? []));
    await open.session.prompt(scenario.input);
    traces["历史"] = { on: "history", pairing: true, trace: asPi(open.session.messages) };
  }
  if (scenario.template !== undefined) {
    const text = pkg.prompts[scenario.template].trim();
    open.replies.push({ kind: "message", text: "好的。", calls: [], stop: "stop" });
    await open.session.prompt(`/${scenario.template}`);
    const lastUser = open.session.messages.findLast((m) => m.role === "user");
    facts[`提示模板 ${scenario.template}`] = [
      `系统提示里：${open.session.systemPrompt.includes(text) ? "有" : "没有"}`,
      `输入 /${scenario.template}：${lastUser !== undefined && textOf(lastUser).includes(text) ? "展开成用户消息" : "原样发出"}`,
    ];
  }
  facts["报告的问题"] = [String(open.problems.length)];
  open.session.dispose();
  return { facts, traces };
}

/** 一个机制剧本在真实 Pi 上跑出的观察。root 是 run.ts 写好剧本文件的临时目录。 */
export async function runPiMechanism(scenario: MechanismScenario, root: string): Promise<Observation> {
  const dirs = scenarioDirs(root, scenario.id);
  switch (scenario.mechanism) {
    case "s07":
      return runTree(scenario, dirs);
    case "s08":
    case "s11":
      return runPrompt(scenario, dirs);
    case "s09":
      return runExtensions(scenario, dirs);
    case "s10":
      return runMode(scenario, dirs);
    case "s12":
      return runPackage(scenario, dirs);
  }
}
