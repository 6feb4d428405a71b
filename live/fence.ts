// 工作目录的围栏：工具读文件、加载 AGENTS.md，走的都是这一道检查，不许有第二条路。
// 以前 AGENTS.md 自己拼路径直接读，一个指到目录外的符号链接就能把任意文件送进系统提示；
// 所以凡是要从工作目录里读东西，都先经过 resolveInside，再用 readWorkspaceText 读解开链接后的真实路径。
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep, win32 } from "node:path";

export type WorkspaceLimits = {
  /** read 和 grep 最多读多大的文件（字节）。AGENTS.md 也守这个上限。 */
  maxFileBytes: number;
  /** ls 最多列多少项。 */
  maxEntries: number;
  /** grep 最多报多少处匹配。 */
  maxMatches: number;
  /** grep 最多看多少个文件。 */
  maxFilesSearched: number;
};

export const DEFAULT_LIMITS: WorkspaceLimits = { maxFileBytes: 100 * 1024, maxEntries: 500, maxMatches: 100, maxFilesSearched: 5000 };

/** 给人（和模型）看的相对路径：统一用 /，工作目录本身写成 "."。 */
export const show = (rel: string): string => (rel === "" ? "." : rel.split(sep).join("/"));
export const isHiddenName = (name: string): boolean => name.startsWith(".") && name !== "." && name !== "..";
const hiddenSegment = (rel: string): string | undefined => rel.split(sep).find(isHiddenName);
const escapes = (rel: string): boolean => rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);

/** 字节数写成人看的大小。 */
export function size(bytes: number): string {
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

/** 路径在工作目录里根本不存在。和「存在但不许碰」分开，调用方常常要区别对待（比如没有 AGENTS.md 不用提）。 */
export class NotFoundError extends Error {}

/**
 * 模型给的路径 → 工作目录里的真实路径。不合格就抛错并说明为什么。
 * 先按字面检查（绝对路径、..、隐藏段），再解开符号链接查一遍真实位置（链接可能指到目录外，或者指向隐藏文件；
 * 路径中间的某个目录也可能是链接）。工作目录本身是链接没关系：比的是两边解开之后的真实路径。
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
    throw new NotFoundError(`no such file or folder: "${show(lexical)}"`);
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

/** 读一个已经过了 resolveInside 的文件（abs 是解开链接后的真实路径）：超限或二进制就抛错。 */
export function readText(abs: string, shown: string, limits: WorkspaceLimits): string {
  const stats = statSync(abs);
  if (stats.isDirectory()) throw new Error(`"${shown}" is a folder; use ls to list it`);
  if (!stats.isFile()) throw new Error(`"${shown}" is not a regular file`);
  if (stats.size > limits.maxFileBytes) throw new Error(`"${shown}" is ${size(stats.size)}, over the ${size(limits.maxFileBytes)} limit`);
  const text = decodeText(readFileSync(abs));
  if (text === undefined) throw new Error(`"${shown}" looks like a binary file; only text files can be read`);
  return text;
}

/** 过围栏，再读：工作目录里的一个文本文件。 */
export function readWorkspaceText(root: string, path: string, limits: WorkspaceLimits = DEFAULT_LIMITS): { text: string; rel: string } {
  const { abs, rel } = resolveInside(root, path);
  return { text: readText(abs, show(rel), limits), rel };
}
