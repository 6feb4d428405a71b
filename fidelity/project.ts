// 机制剧本用到的磁盘文件：run.ts 在一个临时目录里按剧本写好，Pi 一边和 mini 一边读的是同一批文件。
// 每个剧本一个目录：project/ 是工作目录，agent/ 是 Pi 的用户目录，extensions/ 放扩展文件，packages/ 放本地的包。
// 扩展文件由同一份 ExtensionSpec 各写一份：Pi 的扩展 API 一份（给 Pi 的装载器），课程的 Extension 一份（mini 一边 import 它）。

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ExtensionSpec, type Gate, MECHANISM_SCENARIOS, type MechanismScenario, type PackageSpec, skillFile, templateParams } from "./mechanisms.ts";

/** 一个剧本的目录们。 */
export type ScenarioDirs = { dir: string; cwd: string; agentDir: string; extensions: string; packages: string };

export const scenarioDirs = (root: string, id: string): ScenarioDirs => {
  const dir = join(root, id);
  return { dir, cwd: join(dir, "project"), agentDir: join(dir, "agent"), extensions: join(dir, "extensions"), packages: join(dir, "packages") };
};

/**
 * 扩展把看到的东西记进 globalThis.__fidelity，跑剧本的一边再读出来（两边的扩展都和跑它的代码在同一个进程里）。
 * events：每个监听的扩展看到的事件；commands：跑过的命令和它的回复（Pi 的命令不返回文字）；gate：工具钩子看到的调用。
 */
export type Journal = { events: Record<string, string[]>; commands: [string, string][]; gate: string[] };

/** 换一份空日志（每个剧本开跑之前），返回它。 */
export function resetJournal(): Journal {
  const journal: Journal = { events: {}, commands: [], gate: [] };
  (globalThis as unknown as { __fidelity: Journal }).__fidelity = journal;
  return journal;
}

/** 工作目录里给 read 工具读的文件。 */
export const README = "# todo-app";

const write = (path: string, content: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};

/**
 * 一份 ExtensionSpec 写成 Pi 的扩展文件（默认导出 ExtensionFactory）。监听者按课程的说法记事件：
 * Pi 的 message_end 记成 message（带上消息的角色），agent_end 记成 done（DIFFERENCES.md 的表示法对应）。
 * 日志在工厂函数里现取：同一个文件被装载几次，每次都记进当时那一份。
 */
export function piExtensionSource(spec: ExtensionSpec): string {
  const s = JSON.stringify;
  const lines = [
    `// 由 fidelity/project.ts 按剧本生成：扩展 ${s(spec.name)} 的 Pi 写法。`,
    "const text = (m: any): string => (typeof m.content === 'string' ? m.content : m.content.map((b: any) => (b.type === 'text' ? b.text : '')).join(''));",
    FILL,
    "export default function (pi: any): void {",
    "  const journal = (globalThis as any).__fidelity;",
  ];
  for (const tool of spec.tools) {
    lines.push(
      `  pi.registerTool({ name: ${s(tool.name)}, label: ${s(tool.name)}, description: ${s(tool.description)}, parameters: ${s(jsonSchema(tool.template))},`,
      `    execute: async (_id: string, params: Record<string, unknown>) => ({ content: [{ type: "text", text: fill(${s(tool.template)}, params) }], details: {} }) });`,
    );
  }
  for (const cmd of spec.commands) {
    lines.push(`  pi.registerCommand(${s(cmd.name)}, { description: ${s(cmd.name)}, handler: async () => { journal.commands.push([${s(cmd.name)}, ${s(cmd.reply)}]); } });`);
  }
  if (spec.listen) {
    lines.push(
      `  const seen: string[] = (journal.events[${s(spec.name)}] = []);`,
      `  pi.on("message_end", (e: any) => { seen.push("message[" + e.message.role + "] " + JSON.stringify(text(e.message))); });`,
      `  pi.on("agent_end", () => { seen.push("done"); });`,
    );
  }
  if (spec.throwOn !== undefined) {
    lines.push(`  pi.on("message_end", (e: any) => { if (text(e.message).includes(${s(spec.throwOn)})) throw new Error("listener failed"); });`);
  }
  if (spec.failLoading !== undefined) lines.push(`  throw new Error(${s(spec.failLoading)});`);
  lines.push("}", "");
  return lines.join("\n");
}

/**
 * 同一份 ExtensionSpec 写成课程的扩展文件（默认导出 Extension：收 on / registerTool / registerCommand 的函数）。
 * 函数名就是扩展名：课程的错误信息靠它点名。监听者记的行和 Pi 一边同样写法（observe.ts 的 messageEventLine），只是没有角色。
 */
export function courseExtensionSource(spec: ExtensionSpec): string {
  const s = JSON.stringify;
  const lines = [
    `// 由 fidelity/project.ts 按剧本生成：扩展 ${s(spec.name)} 的课程写法。`,
    FILL,
    "const extension = function (api: any): void {",
    "  const journal = (globalThis as any).__fidelity;",
  ];
  for (const tool of spec.tools) {
    const input = Object.fromEntries(templateParams(tool.template).map((p) => [p, p]));
    lines.push(`  api.registerTool({ spec: { name: ${s(tool.name)}, description: ${s(tool.description)}, input: ${s(input)} }, handler: (args: Record<string, string>) => fill(${s(tool.template)}, args) });`);
  }
  for (const cmd of spec.commands) lines.push(`  api.registerCommand({ name: ${s(cmd.name)}, run: () => ${s(cmd.reply)} });`);
  if (spec.listen) {
    lines.push(
      `  const seen: string[] = (journal.events[${s(spec.name)}] = []);`,
      `  api.on("message", (e: any) => { seen.push("message " + JSON.stringify(e.content)); });`,
      `  api.on("done", () => { seen.push("done"); });`,
    );
  }
  if (spec.throwOn !== undefined) {
    lines.push(`  api.on("message", (e: any) => { if (e.content.includes(${s(spec.throwOn)})) throw new Error("listener failed"); });`);
  }
  if (spec.failLoading !== undefined) lines.push(`  throw new Error(${s(spec.failLoading)});`);
  lines.push("};", `export default Object.defineProperty(extension, "name", { value: ${s(spec.name)} });`, "");
  return lines.join("\n");
}

/** 两种写法共用的模板填充（和 mechanisms.ts 的 fillTemplate 一样）。 */
const FILL = "const fill = (t: string, args: Record<string, unknown>): string => t.replace(/\\{(\\w+)\\}/g, (_: string, p: string) => (typeof args[p] === 'string' ? String(args[p]) : ''));";

/** 模板的参数写成 Pi 工具的 JSON Schema：都是必填的字符串，不收别的参数。 */
const jsonSchema = (template: string) => {
  const params = templateParams(template);
  return { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "string", description: p }])), required: params, additionalProperties: false };
};

/** 扩展文件的路径：Pi 写法是 <名字>.ts，课程写法是 <名字>.course.ts。 */
export const extensionFile = (dirs: ScenarioDirs, name: string, api: "pi" | "course"): string => join(dirs.extensions, api === "pi" ? `${name}.ts` : `${name}.course.ts`);

/** 工具钩子的 Pi 写法：订阅 tool_call 记下调用，订阅 tool_result 在结果后面接上一段。 */
export function piGateSource(gate: Gate): string {
  return [
    "// 由 fidelity/project.ts 按剧本生成：工具钩子的 Pi 写法。",
    "export default function (pi: any): void {",
    "  const journal = (globalThis as any).__fidelity;",
    "  pi.on(\"tool_call\", (e: any) => { journal.gate.push(e.toolName); });",
    `  pi.on("tool_result", (e: any) => ({ content: e.content.map((c: any) => (c.type === "text" ? { ...c, text: c.text + ${JSON.stringify(gate.suffix)} } : c)) }));`,
    "}",
    "",
  ].join("\n");
}

/** 包的 Pi 写法：package.json 的 pi 键列出扩展、技能、提示模板。brokenCommand 的扩展写进清单，文件却不放。 */
function writePiPackage(dir: string, pkg: PackageSpec): void {
  const extensions = ["./extensions/index.ts", ...(pkg.brokenCommand === undefined ? [] : [`./extensions/${pkg.brokenCommand}.ts`])];
  write(join(dir, "package.json"), `${JSON.stringify({ name: pkg.name, version: "1.0.0", pi: { extensions, skills: ["./skills"], prompts: ["./prompts"] } }, null, 2)}\n`);
  write(join(dir, "extensions", "index.ts"), piExtensionSource(pkg.extension));
  for (const [name, skill] of Object.entries(pkg.skills)) write(join(dir, "skills", name, "SKILL.md"), skillFile(name, skill.description, skill.body));
  for (const [name, text] of Object.entries(pkg.prompts)) write(join(dir, "prompts", `${name}.md`), `${text}\n`);
}

/** 按剧本写文件。每个剧本的工作目录里都有一个给 read 读的 README.md。 */
export function writeScenario(root: string, scenario: MechanismScenario): ScenarioDirs {
  const dirs = scenarioDirs(root, scenario.id);
  mkdirSync(dirs.agentDir, { recursive: true });
  write(join(dirs.cwd, "README.md"), README);
  if (scenario.mechanism === "s08" || scenario.mechanism === "s11") {
    for (const [path, content] of Object.entries(scenario.files)) {
      write(join(dirs.dir, path), typeof content === "string" ? content : piExtensionSource(content.extension));
    }
  }
  if (scenario.mechanism === "s09" || scenario.mechanism === "s12") {
    for (const spec of scenario.extensions) {
      write(extensionFile(dirs, spec.name, "pi"), piExtensionSource(spec));
      write(extensionFile(dirs, spec.name, "course"), courseExtensionSource(spec));
    }
  }
  if (scenario.mechanism === "s09" && scenario.gate !== undefined) write(join(dirs.extensions, "gate.ts"), piGateSource(scenario.gate));
  if (scenario.mechanism === "s12") writePiPackage(join(dirs.packages, scenario.pkg.name), scenario.pkg);
  return dirs;
}

/** 全部机制剧本的文件。 */
export function writeScenarios(root: string): void {
  for (const scenario of MECHANISM_SCENARIOS) writeScenario(root, scenario);
}
