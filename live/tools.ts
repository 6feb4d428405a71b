// 真实模型模式的三个工具：读文件、列目录、搜文字。只读，只在工作目录里。
// 它们就是 s02 的 Tool：handler 同步、收字符串参数、回一段文字；拒绝时抛错，ToolRegistry.run 把它变成 "error: …" 结果。
// 拒绝的情况：绝对路径、走出工作目录的 ..、指向目录外的符号链接、隐藏文件和目录（任何一段以 . 开头，
// 如 .env、.git/、.ssh/）、超过大小上限的文件、二进制文件。这些检查都在 fence.ts，AGENTS.md 的加载也走它。
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Tool, type ToolCall, ToolRegistry } from "../s12_packages/code.ts";
import { DEFAULT_LIMITS, type FencedPath, type WorkspaceLimits, decodeText, isHiddenName, readBytes, readFencedText, resolveInside, show, size } from "./fence.ts";

export { DEFAULT_LIMITS, type WorkspaceLimits, decodeText, resolveInside } from "./fence.ts";

/** grep 不进的目录：不是隐藏的，但几乎总是别人的代码，又大。 */
const SKIPPED_DIRS = new Set(["node_modules"]);

/** 列目录里的一项：目录带 /，指到目录外或隐藏处的链接标出来（名字可以看，内容进不去）。 */
function entryLine(root: string, dirRel: string, name: string): string {
  const rel = dirRel === "" ? name : join(dirRel, name);
  try {
    const { abs } = resolveInside(root, rel);
    return statSync(abs).isDirectory() ? `${name}/` : name;
  } catch {
    return `${name} (link to somewhere off limits)`;
  }
}

/** 在一个文件里找，命中就记一行 "路径:行号: 内容"。 */
function grepText(text: string, shown: string, needle: Needle, hits: string[], max: number): void {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    const line = lines[i];
    if (!(needle.ignoreCase ? line.toLowerCase() : line).includes(needle.text)) continue;
    const trimmed = line.trim();
    hits.push(`${shown}:${i + 1}: ${trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed}`);
  }
}

/** 工作目录 root 上的三个只读工具：read、ls、grep。 */
export function createWorkspaceTools(root: string, limits: WorkspaceLimits = DEFAULT_LIMITS): Tool[] {
  return [readTool(root, limits), lsTool(root, limits), grepTool(root, limits)];
}

function readTool(root: string, limits: WorkspaceLimits): Tool {
  return {
    spec: {
      name: "read",
      description: `Read a text file in the working directory (max ${size(limits.maxFileBytes)}). Paths are relative, e.g. src/main.ts.`,
      input: { path: "file path relative to the working directory, e.g. src/main.ts" },
    },
    handler: ({ path }) => {
      const text = readFencedText(resolveInside(root, path), limits);
      return text === "" ? "(empty file)" : text;
    },
  };
}

function lsTool(root: string, limits: WorkspaceLimits): Tool {
  return {
    spec: {
      name: "ls",
      description: "List a folder in the working directory. Folders end with /. Hidden entries are not shown.",
      input: { path: 'folder path relative to the working directory; "." for the working directory itself' },
    },
    handler: ({ path }) => {
      const { abs, rel } = resolveInside(root, path);
      if (!statSync(abs).isDirectory()) throw new Error(`"${show(rel)}" is a file; use read to see it`);
      const names = readdirSync(abs).sort();
      const visible = names.filter((name) => !isHiddenName(name));
      const lines = visible.slice(0, limits.maxEntries).map((name) => entryLine(root, rel, name));
      if (visible.length > limits.maxEntries) lines.push(`… and ${visible.length - limits.maxEntries} more`);
      const hidden = names.length - visible.length;
      if (hidden > 0) lines.push(`(${hidden} hidden ${hidden === 1 ? "entry" : "entries"} not shown)`);
      return lines.length === 0 ? "(empty folder)" : lines.join("\n");
    },
  };
}

/** grep 要找的东西：全小写时不分大小写。 */
type Needle = { text: string; ignoreCase: boolean };

function grepTool(root: string, limits: WorkspaceLimits): Tool {
  return {
    spec: {
      name: "grep",
      description:
        "Search text files for a literal string (not a regex). Case-insensitive when the pattern is all lowercase. " +
        "Skips hidden files and folders, node_modules, symlinks, binary and oversized files. Answers path:line: text.",
      input: { pattern: "the text to look for", path: 'file or folder to search, relative to the working directory; "." for everything' },
    },
    handler: ({ pattern, path }) => {
      if (pattern === "") throw new Error("pattern is empty");
      if (pattern.length > 200) throw new Error("pattern is longer than 200 characters");
      const ignoreCase = pattern === pattern.toLowerCase();
      const needle: Needle = { text: ignoreCase ? pattern.toLowerCase() : pattern, ignoreCase };
      const target = resolveInside(root, path);
      const hits: string[] = [];
      const notes: string[] = [];
      if (statSync(target.abs).isFile()) grepText(readFencedText(target, limits), show(target.rel), needle, hits, limits.maxMatches);
      else notes.push(...grepFolder(target, needle, hits, limits));
      if (hits.length >= limits.maxMatches) notes.unshift(`(stopped at ${limits.maxMatches} matches)`);
      if (hits.length === 0) return [`no matches for "${pattern}" in ${show(target.rel)}`, ...notes].join("\n");
      return [...hits, ...notes].join("\n");
    },
  };
}

/**
 * 从一个目录往下搜（按名字排序，深度优先），把命中记进 hits，交回要附在后面的说明（停在第几个文件、跳过了几个）。
 * 不进隐藏的、node_modules、符号链接；每个文件照样经过 readBytes 的确认，列完目录之后被换掉的也读不到外面。
 */
function grepFolder({ base, rel }: FencedPath, needle: Needle, hits: string[], limits: WorkspaceLimits): string[] {
  let searched = 0;
  let skipped = 0;
  const stack: string[] = [rel];
  while (stack.length > 0 && hits.length < limits.maxMatches && searched < limits.maxFilesSearched) {
    const dir = stack.pop() ?? "";
    const entries = readdirSync(join(base, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (isHiddenName(entry.name) || entry.isSymbolicLink()) continue;
      const child = dir === "" ? entry.name : join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) subdirs.push(child);
        continue;
      }
      if (!entry.isFile() || hits.length >= limits.maxMatches || searched >= limits.maxFilesSearched) continue;
      const read = readBytes({ base, abs: join(base, child), rel: child }, show(child), limits.maxFileBytes);
      const text = "bytes" in read ? decodeText(read.bytes) : undefined;
      if (text === undefined) {
        skipped++;
        continue;
      }
      searched++;
      grepText(text, show(child), needle, hits, limits.maxMatches);
    }
    stack.push(...subdirs.reverse());
  }
  const notes: string[] = [];
  if (searched >= limits.maxFilesSearched) notes.push(`(stopped after searching ${searched} files)`);
  if (skipped > 0) notes.push(`(skipped ${skipped} binary or oversized ${skipped === 1 ? "file" : "files"})`);
  return notes;
}

/**
 * 认得「参数根本不成形」的工具登记处。模型发来的参数不是 JSON、或者不是字符串对象时，provider 交出一个 input 为 {}
 * 的调用，另外记下哪里不对；这里按调用 id 查到，就不碰工具，直接回一条 "error: …" 结果，让模型看着改了再调一次。
 * 和 s02 的 ToolRegistry.run 把 zod 校验失败写成 "error: invalid arguments …" 是同一个意思，只是多认了一种坏法。
 */
export class LiveToolRegistry extends ToolRegistry {
  constructor(private readonly argumentProblem: (callId: string) => string | undefined) {
    super();
  }

  override run(call: ToolCall): string {
    const problem = this.argumentProblem(call.id);
    return problem === undefined ? super.run(call) : `error: ${problem}`;
  }
}
