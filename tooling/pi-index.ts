/**
 * 读 tooling/pi-index.json（npm run gen:pi-index，即 scripts/pi-index.ts，从发布的 Pi 1.6.0 三个包生成）。文档检查用它核对：
 * 课文引用的每个 Pi 路径和名字真的有，写在某个文件旁边的名字就定义在那个文件里。
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const NameMap = z.record(z.string(), z.array(z.string()));

const PiIndexSchema = z.object({
  version: z.string(),
  repository: z.string(),
  packages: z.array(z.object({ name: z.string(), version: z.string(), directory: z.string() })),
  /** 仓库里的源文件路径 → 导出的名字和公开的 `Class.member` */
  files: NameMap,
  /** 仓库里的源文件路径 → `export * from` 的模块 */
  reexports: NameMap,
  /** 仓库里的源文件路径 → 真有、但不导出的名字（和 private/protected 的 `Class.member`） */
  internal: NameMap,
  /** 包里带着的文档、例子、README、CHANGELOG，写成仓库里的路径 */
  docs: z.array(z.string()),
  /** 每个名字（导出的、内部的，`Class.member` 也算）→ 定义它的源文件，排好序 */
  names: NameMap,
  /** Pi 的声明里出现的每个字符串字面量类型（`"agent_start"`、`"tool_call"`），排好序 */
  literals: z.array(z.string()),
});

export type PiIndex = z.infer<typeof PiIndexSchema>;

let cached: PiIndex | undefined;

export function loadPiIndex(): PiIndex {
  cached ??= PiIndexSchema.parse(JSON.parse(readFileSync(new URL("./pi-index.json", import.meta.url), "utf8")));
  return cached;
}

// README 写路径的几种常见写法都认："./packages/..."、"...md#anchor"。
const normalize = (p: string): string => p.replace(/^\.\//, "").replace(/#.*$/, "");

/** 一个源文件（有导出或内部的名字）、一份带着的文档，或者装着它们的文件夹。 */
export function hasPiPath(path: string): boolean {
  const idx = loadPiIndex();
  const p = normalize(path);
  const dir = `${p.replace(/\/+$/, "")}/`;
  const all = [...Object.keys(idx.files), ...Object.keys(idx.internal), ...idx.docs];
  return all.some((known) => known === p || known.startsWith(dir));
}

/** Pi 1.6.0 里定义 `name`（或 `Class.member`）的源文件，导出的、内部的都算。 */
export function piFilesDefining(name: string): readonly string[] {
  return Object.hasOwn(loadPiIndex().names, name) ? (loadPiIndex().names[name] ?? []) : [];
}

/** `name` 定义在源文件 `path` 里，或文件夹 `path` 下的某个文件里。 */
export function piNameIn(name: string, path: string): boolean {
  const p = normalize(path);
  const dir = `${p.replace(/\/+$/, "")}/`;
  return piFilesDefining(name).some((f) => f === p || f.startsWith(dir));
}

let literalSet: ReadonlySet<string> | undefined;

/** Pi 1.6.0 的声明里的一个字符串字面量类型（事件名或种类名，比如 `agent_start`）。 */
export function hasPiLiteral(value: string): boolean {
  literalSet ??= new Set(loadPiIndex().literals);
  return literalSet.has(value);
}

/** `name`（或 `Class.member`）在哪儿有都行，给了 `path` 就得在 `path` 里；导出的、内部的都算。 */
export function hasPiName(name: string, path?: string): boolean {
  return path === undefined ? piFilesDefining(name).length > 0 : piNameIn(name, path);
}
