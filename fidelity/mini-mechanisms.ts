// 机制剧本的 mini Pi 一侧：同一份剧本交给某一课的 SessionTree、ResourceLoader / buildSystemPrompt、ExtensionRuntime、
// PrintMode / JsonMode、load(trust)、loadPackage / installPackage，算出和 Pi 一侧同名的观察（observe.ts）。
// 拼 Agent、按剧本出事件的 provider 都复用课程工具库的 tooling/assemble-agent.ts（行为测试用的也是它）。跑在课程自己的 Node 上。

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type ExtensionApiLike, type LessonModule, type Msg, type ToolLike, type Tree, importLesson } from "../tooling/lesson.ts";
import { lessonNumber } from "../tooling/course.ts";
import { makeAgent, scriptedProvider } from "../tooling/assemble-agent.ts";
import { normaliseMini, normaliseMiniRequest, type Observation } from "./compare.ts";
import { type ExtensionSpec, HOST_READ, type MechanismScenario, type PackageSpec, type ProjectFiles, type TreeMessage } from "./mechanisms.ts";
import { toSteps } from "./mini-loop.ts";
import { ABSENT, commandLine, knownResources, messageEventLine, packageResources, parseSkillFile, jsonEvents, parsesAsJson, promptFacts, rawSeparators, treeObservation, type TreeState } from "./observe.ts";
import { extensionFile, resetJournal, type ScenarioDirs, scenarioDirs } from "./project.ts";
import { EXHAUSTED, type Reply } from "./scenarios.ts";

type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };


// ── s07：SessionTree ──────────────────────────────────────
/** 剧本消息写成课程的消息：出错的回答按 D6 在文字后面接一行 error，出错的结果以 "error: " 开头（D18）。 */
function toMiniMessage(m: TreeMessage): Msg {
  switch (m.role) {
    case "user":
      return { role: "user", content: m.text };
    case "toolResult":
      return { role: "toolResult", toolCallId: m.callId, content: m.isError ? `error: ${m.text}` : m.text };
    case "assistant":
      if ("error" in m) return { role: "assistant", content: m.text === "" ? `error: ${m.error}` : `${m.text}\nerror: ${m.error}`, stopReason: "error" };
      return { role: "assistant", content: m.text, stopReason: m.stop ?? "stop" };
  }
}

const silentProvider = (lesson: string) => scriptedProvider(lesson, () => []).provider;

async function runTree(lesson: string, mod: LessonModule, scenario: Extract<MechanismScenario, { mechanism: "s07" }>): Promise<Observation> {
  const { agent } = makeAgent(lesson, mod, { provider: silentProvider(lesson) });
  const tree = agent.state.messages as Tree;
  const appended: string[] = [];
  const calls: string[][] = [];
  let missing: TreeState["missing"];
  for (const step of scenario.steps) {
    if ("append" in step) {
      appended.push(tree.append(toMiniMessage(step.append)).id);
      calls.push(step.append.role === "assistant" && !("error" in step.append) ? (step.append.calls ?? []) : []);
    } else if ("branchTo" in step) tree.moveTo(appended[step.branchTo]);
    // 课程的 moveTo 只收已有节点的 id，回不到第一条之前；最接近的做法是换到根（差异表 F14）
    else if ("restart" in step) tree.moveTo(appended[0]);
    else {
      const before = JSON.stringify(tree.currentPath());
      try {
        tree.moveTo("no-such-entry");
        missing = "没报错";
      } catch {
        missing = JSON.stringify(tree.currentPath()) === before ? "报错，叶子没动" : "报错，但叶子动了";
      }
    }
  }
  const all: Msg[] = tree.allEntries().map((e) => ({ ...e, role: e.role as Msg["role"] }));
  // 节点按追加顺序编位置，和 Pi 一侧一样；allEntries 本来就是追加顺序
  const position = (id: string | null): number | null => (id === null ? null : appended.indexOf(id));
  const parents = tree.allEntries().map((e) => position(e.parentId));
  const chain = (i: number | null): number[] => (i === null ? [] : [...chain(parents[i]), i]);
  const callsOf = (indexes: number[]): string[][] => indexes.filter((i) => all[i].role === "assistant").map((i) => calls[i]);
  // 课程的树不交出叶子：从 currentPath 认，哪个节点从根走下来正好是这条路径
  const path = tree.currentPath();
  const leaf = all.findIndex((_, i) => JSON.stringify(chain(i).map((k) => describe(all[k]))) === JSON.stringify(path.map(describe)));
  return treeObservation({
    entries: normaliseMini(all, callsOf(all.map((_, i) => i))),
    parents,
    leaf: leaf < 0 ? null : leaf,
    path: normaliseMini(path, callsOf(chain(leaf < 0 ? null : leaf))),
    sent: normaliseMiniRequest(mod.buildProviderInput(agent).messages),
    missing,
  });
}

const describe = (m: Msg): string => JSON.stringify([m.role, m.content, m.toolCallId ?? null, m.stopReason ?? null]);

// ── s08、s11：资料 ────────────────────────────────────────
/**
 * 课程的 ResourceLoader 不读磁盘，资料由调用方交给构造函数。这里替调用方把工作目录里的文件换成资料：
 * AGENTS.md 是 agents；.pi/skills/<名字>/SKILL.md 和用户目录的 skills/<名字>/SKILL.md 是 skill，内容是说明一行加正文；
 * .pi/APPEND_SYSTEM.md 是 prompt。上一级目录的文件不交（课程不找文件，差异表 F17）。
 */
export function resourcesFromFiles(files: ProjectFiles): Resource[] {
  const agents: Resource[] = [];
  const skills: Resource[] = [];
  const prompts: Resource[] = [];
  for (const [path, content] of Object.entries(files)) {
    if (typeof content !== "string") continue;
    if (path === "project/AGENTS.md") agents.push({ kind: "agents", name: "AGENTS.md", content });
    const skill = /^(?:project\/\.pi|agent)\/skills\/([^/]+)\/SKILL\.md$/.exec(path);
    const parsed = parseSkillFile(content);
    if (skill !== null && parsed !== undefined) skills.push({ kind: "skill", name: skill[1], content: `${parsed.description}\n${parsed.body}` });
    if (path === "project/.pi/APPEND_SYSTEM.md") prompts.push({ kind: "prompt", name: "APPEND_SYSTEM.md", content });
  }
  return [...agents, ...skills.sort((a, b) => a.name.localeCompare(b.name)), ...prompts];
}

function runPrompt(lesson: string, mod: LessonModule, scenario: Extract<MechanismScenario, { mechanism: "s08" | "s11" }>, dirs: ScenarioDirs): Observation {
  const trust = scenario.mechanism === "s11" ? scenario.trust : "trusted";
  const { agent } = makeAgent(lesson, mod, { provider: silentProvider(lesson), resources: resourcesFromFiles(scenario.files), trust });
  const prompt = mod.buildProviderInput(agent).systemPrompt ?? "";
  const known = knownResources(dirs.dir, scenario.files);
  if (scenario.mechanism === "s08") {
    return { facts: promptFacts(prompt, known, ["项目说明", "技能", "技能条目带文件位置", "追加的话", "各部分的先后", "工作目录"], dirs.cwd), traces: {} };
  }
  return { facts: { ...promptFacts(prompt, known, ["项目说明", "技能", "追加的话"], dirs.cwd), 项目扩展登记的工具: [ABSENT] }, traces: {} };
}

// ── s09、s12：扩展 ────────────────────────────────────────
/** 从磁盘 import 一个扩展文件，取它的默认导出。 */
async function importExtension(file: string): Promise<(api: ExtensionApiLike) => void> {
  const mod = (await import(pathToFileURL(file).href)) as { default: (api: ExtensionApiLike) => void };
  return mod.default;
}

/** 剧本里的扩展按顺序装上：平常装课程写法的文件；foreign 时故意装 Pi 写法的那一份。 */
async function useExtensions(runtime: { use(ext: (api: ExtensionApiLike) => void): void }, dirs: ScenarioDirs, specs: readonly ExtensionSpec[], foreign = false): Promise<void> {
  for (const spec of specs) runtime.use(await importExtension(extensionFile(dirs, spec.name, foreign ? "pi" : "course")));
}

/** 宿主自己的 read：读工作目录里的文件，和 Pi 内置的 read 读同一个文件。 */
const hostRead = (cwd: string): ToolLike => ({
  spec: { name: HOST_READ, description: "读工作目录里的一个文件", input: { path: "文件路径" } },
  handler: ({ path }) => readFileSync(join(cwd, path), "utf8"),
});

/** 命令的输出是某个扩展写好的回复，才算命令跑了；别的（课程对没有的命令回一句 error）都算没跑。 */
const commandLines = (runtime: { runCommand(name: string): string }, names: readonly string[], specs: readonly ExtensionSpec[]): string[] => {
  const replies = new Set(specs.flatMap((s) => s.commands.map((c) => c.reply)));
  return names.map((name) => {
    const out = runtime.runCommand(name);
    return commandLine(name, replies.has(out) ? out : undefined);
  });
};

/** 按剧本出事件的 provider；calls 记下每次回答要的调用，供归一历史。 */
function scripted(lesson: string, replies: Reply[]) {
  const calls: string[][] = [];
  const { provider, inputs } = scriptedProvider(lesson, (_input, n) => toSteps(replies[n] ?? EXHAUSTED, calls));
  return { provider, calls, inputs };
}

async function runExtensions(lesson: string, mod: LessonModule, scenario: Extract<MechanismScenario, { mechanism: "s09" }>, dirs: ScenarioDirs): Promise<Observation> {
  const journal = resetJournal();
  const { provider, calls } = scripted(lesson, scenario.replies);
  const { gate } = scenario;
  const hooks =
    gate === undefined
      ? {}
      : {
          beforeToolCall: (call: { name: string }) => {
            journal.gate.push(call.name);
            return { type: "allow" as const };
          },
          afterToolCall: (_call: unknown, result: string) => result + gate.suffix,
        };
  const { agent, messages } = makeAgent(lesson, mod, { provider, tools: [hostRead(dirs.cwd)], hooks });
  const runtime = agent.runtime;
  if (runtime === undefined || agent.registry === undefined) throw new Error(`${lesson} has no ExtensionRuntime`);
  await useExtensions(runtime, dirs, scenario.extensions, scenario.foreign);
  const tools = agent.registry.getSpecs().map((s) => s.name).sort();
  await mod.runOneTurn(agent, scenario.input);
  const history = normaliseMini(messages(), calls);
  const listeners = scenario.extensions.filter((e) => e.listen);
  return {
    facts: {
      模型能用的工具: tools,
      命令: commandLines(runtime, scenario.commands, scenario.extensions),
      ...(gate === undefined ? {} : { 钩子看到的调用: [...journal.gate] }),
      监听者看到的事件: listeners.flatMap((e) => (journal.events[e.name] ?? []).map((line) => `${e.name}: ${line}`)),
      记下的错误: [String(runtime.errors.length)],
    },
    traces: { 历史: { on: "history", pairing: true, trace: history } },
  };
}

// ── s10：PrintMode、JsonMode ──────────────────────────────
async function runMode(lesson: string, mod: LessonModule, scenario: Extract<MechanismScenario, { mechanism: "s10" }>, dirs: ScenarioDirs): Promise<Observation> {
  const { provider, inputs } = scripted(lesson, scenario.replies);
  const lines: string[] = [];
  const output = { log: (line: string) => void lines.push(line) };
  const mode = scenario.mode === "json" ? new mod.JsonMode(output) : new mod.PrintMode(output);
  const { agent } = makeAgent(lesson, mod, { provider, tools: [hostRead(dirs.cwd)], mode });
  await mod.runOneTurn(agent, scenario.input);
  // 课程的 Output 一次写一行；一行里要是有换行，到了终端就是几行
  const stdout = lines.flatMap((l) => l.split("\n"));
  const failure = scenario.replies.find((r) => r.kind === "error");
  if (scenario.mode === "text") {
    const facts: Observation["facts"] = { 标准输出: stdout };
    if (failure !== undefined) {
      // 课程只有 Output 一个出口：演示里它接到 stdout（consoleOutput 用 console.log）
      facts["错误说明写在哪"] = [stdout.some((l) => l.includes(failure.message)) ? "标准输出" : "哪儿都没有"];
      facts["退出码"] = [ABSENT];
      facts["问了模型几次"] = [String(inputs.length)];
    }
    return { facts, traces: {} };
  }
  const events = jsonEvents(lines) as { type: string; content?: string }[];
  return {
    facts: {
      每行都能按JSON解析: [parsesAsJson(lines)],
      开头的会话头: [events[0]?.type === "session" ? "有" : "没有"],
      "事件种类（按第一次出现）": [...new Set(events.map((e) => e.type))],
      读得出的消息: events.flatMap((e) => (e.type === "message" ? [messageEventLine(e.content ?? "")] : [])),
      最后一个事件: [events.at(-1)?.type ?? "（没有）"],
      "原样的 U+2028 / U+2029": [rawSeparators(lines.join("\n"))],
    },
    traces: {},
  };
}

// ── s12：包 ───────────────────────────────────────────────
/** 同一个包写成课程的格式：清单列出工具、命令、资料，contents 放内容。brokenCommand 列进清单，内容不放。 */
export function coursePackage(pkg: PackageSpec): { manifest: { name: string; tools: string[]; commands: string[]; resources: string[] }; contents: Record<string, string> } {
  const contents: Record<string, string> = {};
  for (const tool of pkg.extension.tools) contents[tool.name] = tool.template;
  for (const cmd of pkg.extension.commands) contents[cmd.name] = cmd.reply;
  for (const [name, skill] of Object.entries(pkg.skills)) contents[`skills/${name}`] = `${skill.description}\n${skill.body}`;
  for (const [name, text] of Object.entries(pkg.prompts)) contents[`prompts/${name}`] = text;
  return {
    manifest: {
      name: pkg.name,
      tools: pkg.extension.tools.map((t) => t.name),
      commands: [...pkg.extension.commands.map((c) => c.name), ...(pkg.brokenCommand === undefined ? [] : [pkg.brokenCommand])],
      resources: [...Object.keys(pkg.skills).map((n) => `skills/${n}`), ...Object.keys(pkg.prompts).map((n) => `prompts/${n}`)],
    },
    contents,
  };
}

async function runPackage(lesson: string, mod: LessonModule, scenario: Extract<MechanismScenario, { mechanism: "s12" }>, dirs: ScenarioDirs): Promise<Observation> {
  resetJournal();
  const replies = [...(scenario.replies ?? []), { kind: "message" as const, text: "好的。", calls: [], stop: "stop" as const }];
  const { provider, calls } = scripted(lesson, replies);
  const { agent, messages } = makeAgent(lesson, mod, { provider, tools: [hostRead(dirs.cwd)] });
  const { runtime, registry } = agent;
  if (runtime === undefined || registry === undefined) throw new Error(`${lesson} has no ExtensionRuntime`);
  await useExtensions(runtime, dirs, scenario.extensions);
  let problems = 0;
  try {
    mod.installPackage(agent, mod.loadPackage(coursePackage(scenario.pkg)));
  } catch {
    problems++;
  }
  const { pkg } = scenario;
  const known = packageResources(pkg, join(dirs.packages, pkg.name));
  const facts: Observation["facts"] = {
    模型能用的工具: registry.getSpecs().map((s) => s.name).sort(),
    命令: commandLines(runtime, scenario.commands, [...scenario.extensions, pkg.extension]),
    ...promptFacts(mod.buildProviderInput(agent).systemPrompt ?? "", known, ["技能"], dirs.cwd),
  };
  const traces: Observation["traces"] = {};
  if (scenario.input !== undefined) {
    await mod.runOneTurn(agent, scenario.input);
    traces["历史"] = { on: "history", pairing: true, trace: normaliseMini(messages(), calls) };
  }
  if (scenario.template !== undefined) {
    const text = pkg.prompts[scenario.template].trim();
    const prompt = mod.buildProviderInput(agent).systemPrompt ?? "";
    await mod.runOneTurn(agent, `/${scenario.template}`);
    const lastUser = messages().findLast((m) => m.role === "user");
    facts[`提示模板 ${scenario.template}`] = [
      `系统提示里：${prompt.includes(text) ? "有" : "没有"}`,
      `输入 /${scenario.template}：${lastUser?.content.includes(text) ? "展开成用户消息" : "原样发出"}`,
    ];
  }
  facts["报告的问题"] = [String(problems)];
  return { facts, traces };
}

/** 一个机制剧本在某一课上跑出的观察。root 是 run.ts 写好剧本文件的临时目录。 */
export async function runMiniMechanism(lesson: string, scenario: MechanismScenario, root: string): Promise<Observation> {
  if (lessonNumber(lesson) < lessonNumber(scenario.mechanism)) throw new Error(`${lesson} predates ${scenario.mechanism}`);
  const mod = await importLesson(lesson);
  const dirs = scenarioDirs(root, scenario.id);
  switch (scenario.mechanism) {
    case "s07":
      return runTree(lesson, mod, scenario);
    case "s08":
    case "s11":
      return runPrompt(lesson, mod, scenario, dirs);
    case "s09":
      return runExtensions(lesson, mod, scenario, dirs);
    case "s10":
      return runMode(lesson, mod, scenario, dirs);
    case "s12":
      return runPackage(lesson, mod, scenario, dirs);
  }
}
