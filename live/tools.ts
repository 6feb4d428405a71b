// 真实模型模式的三个工具：读文件、列目录、搜文字。只读，只在工作目录里。
// 它们就是 s02 的 Tool：handler 同步、收字符串参数、回一段文字；拒绝时抛错，ToolRegistry.run 把它变成 "error: …" 结果。
// 拒绝的情况：绝对路径、走出工作目录的 ..、指向目录外的符号链接、隐藏文件和目录（任何一段以 . 开头，
// 如 .env、.git/、.ssh/）、超过大小上限的文件、二进制文件。
import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep, win32 } from "node:path";
import type { Tool } from "../s12_packages/code.ts";

export type WorkspaceLimits = {
  /** read 和 grep 最多读多大的文件（字节）。 */
  maxFileBytes: number;
  /** ls 最多列多少项。 */
  maxEntries: number;
  /** grep 最多报多少处匹配。 */
  maxMatches: number;
  /** grep 最多看多少个文件。 */
  maxFilesSearched: number;
};

export const DEFAULT_LIMITS: WorkspaceLimits = { maxFileBytes: 100 * 1024, maxEntries: 500, maxMatches: 100, maxFilesSearched: 5000 };

/** grep 不进的目录：不是隐藏的，但几乎总是别人的代码，又大。 */
const SKIPPED_DIRS = new Set(["node_modules"]);

const show = (rel: string): string => (rel === "" ? "." : rel.split(sep).join("/"));
const isHiddenName = (name: string): boolean => name.startsWith(".") && name !== "." && name !== "..";
const hiddenSegment = (rel: string): string | undefined => rel.split(sep).find(isHiddenName);
const escapes = (rel: string): boolean => rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** 文字文件才交出去：有 NUL 字节或者不是合法 UTF-8，就当二进制。合法时返回解码后的文字。 */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * 模型给的路径 → 工作目录里的真实路径。不合格就抛错并说明为什么。
 * 先按字面检查（绝对路径、..、隐藏段），再解开符号链接查一遍真实位置（链接可能指到目录外，或者指向隐藏文件）。
 */
export function resolveInside(root: string, requested: string): { abs: string; rel: string } {
  if (requested.includes("\0")) throw new Error("path contains a NUL character");
  const wanted = requested.trim() === "" ? "." : requested.trim();
  if (isAbsolute(wanted) || win32.isAbsolute(wanted)) {
    throw new Error(`absolute paths are not allowed ("${wanted}"); use a path relative to the working directory`);
  }
  const base = realpathSync(root);
  const lexical = relative(base, resolve(base, wanted));
  if (escapes(lexical)) throw new Error(`"${wanted}" is outside the working directory`);
  const hidden = hiddenSegment(lexical);
  if (hidden !== undefined) throw new Error(`"${wanted}" is hidden (${hidden}); hidden files and folders are off limits`);
  const abs = join(base, lexical);
  let real: string;
  try {
    lstatSync(abs);
    real = realpathSync(abs);
  } catch {
    if (existsSync(abs) || isSymlink(abs)) throw new Error(`"${wanted}" is a broken or unreadable link`);
    throw new Error(`no such file or folder: "${show(lexical)}"`);
  }
  const rel = relative(base, real);
  if (escapes(rel)) throw new Error(`"${wanted}" is a symlink that points outside the working directory`);
  if (hiddenSegment(rel) !== undefined) throw new Error(`"${wanted}" is a symlink to a hidden file or folder`);
  return { abs: real, rel };
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** 读一个文本文件，超限或二进制就抛错。 */
function readText(abs: string, shown: string, limits: WorkspaceLimits): string {
  const stats = statSync(abs);
  if (stats.isDirectory()) throw new Error(`"${shown}" is a folder; use ls to list it`);
  if (!stats.isFile()) throw new Error(`"${shown}" is not a regular file`);
  if (stats.size > limits.maxFileBytes) throw new Error(`"${shown}" is ${size(stats.size)}, over the ${size(limits.maxFileBytes)} limit`);
  const text = decodeText(readFileSync(abs));
  if (text === undefined) throw new Error(`"${shown}" looks like a binary file; only text files can be read`);
  return text;
}

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
function grepText(text: string, shown: string, needle: string, ignoreCase: boolean, hits: string[], max: number): void {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    const line = lines[i];
    if (!(ignoreCase ? line.toLowerCase() : line).includes(needle)) continue;
    const trimmed = line.trim();
    hits.push(`${shown}:${i + 1}: ${trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed}`);
  }
}

/** 工作目录 root 上的三个只读工具：read、ls、grep。 */
export function createWorkspaceTools(root: string, limits: WorkspaceLimits = DEFAULT_LIMITS): Tool[] {
  return [
    {
      spec: {
        name: "read",
        description: `Read a text file in the working directory (max ${size(limits.maxFileBytes)}). Paths are relative, e.g. src/main.ts.`,
        input: { path: "file path relative to the working directory, e.g. src/main.ts" },
      },
      handler: ({ path }) => {
        const { abs, rel } = resolveInside(root, path);
        const text = readText(abs, show(rel), limits);
        return text === "" ? "(empty file)" : text;
      },
    },
    {
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
    },
    {
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
        const needle = ignoreCase ? pattern.toLowerCase() : pattern;
        const { abs, rel } = resolveInside(root, path);
        const base = realpathSync(root);
        const hits: string[] = [];
        const notes: string[] = [];
        if (statSync(abs).isFile()) {
          grepText(readText(abs, show(rel), limits), show(rel), needle, ignoreCase, hits, limits.maxMatches);
        } else {
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
              const file = join(base, child);
              const text = statSync(file).size > limits.maxFileBytes ? undefined : decodeText(readFileSync(file));
              if (text === undefined) {
                skipped++;
                continue;
              }
              searched++;
              grepText(text, show(child), needle, ignoreCase, hits, limits.maxMatches);
            }
            stack.push(...subdirs.reverse());
          }
          if (searched >= limits.maxFilesSearched) notes.push(`(stopped after searching ${searched} files)`);
          if (skipped > 0) notes.push(`(skipped ${skipped} binary or oversized ${skipped === 1 ? "file" : "files"})`);
        }
        if (hits.length >= limits.maxMatches) notes.unshift(`(stopped at ${limits.maxMatches} matches)`);
        if (hits.length === 0) return [`no matches for "${pattern}" in ${show(rel)}`, ...notes].join("\n");
        return [...hits, ...notes].join("\n");
      },
    },
  ];
}
