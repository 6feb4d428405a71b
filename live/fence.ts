// 工作目录的围栏：工具读文件、加载 AGENTS.md，走的都是这一道检查，不许有第二条路。
// 以前 AGENTS.md 自己拼路径直接读，一个指到目录外的符号链接就能把任意文件送进系统提示；
// 所以凡是要从工作目录里读东西，都先经过 resolveInside，再用 readFencedText 读解开链接后的真实路径。
// 查和读之间还有一段空隙：查完之后，工作目录里的某个目录可能被换成指到外面的链接。所以 readFencedText 不信查的结果，
// 打开之后再问一遍「打开的到底是哪个文件」（openInside）。
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, readlinkSync, realpathSync, statSync } from "node:fs";
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
export function resolveInside(root: string, requested: string): FencedPath {
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
  return { base, abs: real, rel };
}

/** 过了 resolveInside 的路径：工作目录解开链接后的真实路径 base，文件的真实路径 abs，和它相对 base 的 rel。 */
export type FencedPath = { base: string; abs: string; rel: string };

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * 打开一个过了 resolveInside 的文件，确认打开的就是工作目录里的那个文件，交出文件描述符。
 * 查的时候在里面，不等于打开的时候还在里面：路径上的某个目录可以在这之间被换成指到外面的链接。
 * 所以打开以后再问一遍：Linux 上 /proc/self/fd/N 说出这个描述符真正指着的路径，这就把空隙关死了。
 * 没有 /proc 的系统（macOS）退一步：重新解开路径，比较它和描述符是不是同一个文件（设备号 + inode），空隙只是窄了。
 * O_NOFOLLOW：abs 已经是解开后的真实路径，最后一段这时要是链接，就是被换过了；O_NONBLOCK：换成命名管道也不会卡住。
 */
function openInside(file: FencedPath, shown: string): number {
  const moved = `"${shown}" changed while it was being opened and now points outside the working directory`;
  let fd: number;
  try {
    fd = openSync(file.abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    // 报错里别带上真实的绝对路径：它会作为工具结果发给模型
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === "ELOOP" ? moved : `"${shown}" could not be opened (${code ?? "unknown error"})`);
  }
  try {
    const opened = openedPath(fd, file.abs);
    const rel = relative(file.base, opened);
    if (escapes(rel) || hiddenSegment(rel) !== undefined) throw new Error(moved);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function openedPath(fd: number, abs: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    const now = realpathSync(abs);
    const [a, b] = [fstatSync(fd), statSync(now)];
    return a.dev === b.dev && a.ino === b.ino ? now : "/";
  }
}

/**
 * 读一个过了 resolveInside 的文件：超限或二进制就抛错。大小看的是打开的那个文件（fstat），而且最多读上限加一个字节：
 * 查完之后文件变大了，照样不会读进来一个超限的文件。
 */
export function readFencedText(file: FencedPath, limits: WorkspaceLimits): string {
  const shown = show(file.rel);
  const read = readBytes(file, shown, limits.maxFileBytes);
  if ("over" in read) throw new Error(`"${shown}" is ${read.over === undefined ? "growing past" : `${size(read.over)}, over`} the ${size(limits.maxFileBytes)} limit`);
  const text = decodeText(read.bytes);
  if (text === undefined) throw new Error(`"${shown}" looks like a binary file; only text files can be read`);
  return text;
}

/** 打开（openInside）、确认是普通文件、最多读 maxBytes 字节。超过了交回 over：打开时的大小，读着读着变大的是 undefined。 */
export function readBytes(file: FencedPath, shown: string, maxBytes: number): { bytes: Uint8Array } | { over: number | undefined } {
  const fd = openInside(file, shown);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new Error(`"${shown}" is a folder; use ls to list it`);
    if (!stats.isFile()) throw new Error(`"${shown}" is not a regular file`);
    if (stats.size > maxBytes) return { over: stats.size };
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    for (let n = -1; n !== 0 && filled < buffer.length; filled += n) n = readSync(fd, buffer, filled, buffer.length - filled, null);
    return filled > maxBytes ? { over: undefined } : { bytes: buffer.subarray(0, filled) };
  } finally {
    closeSync(fd);
  }
}

/** 过围栏，再读：工作目录里的一个文本文件。 */
export function readWorkspaceText(root: string, path: string, limits: WorkspaceLimits = DEFAULT_LIMITS): { text: string; rel: string } {
  const file = resolveInside(root, path);
  return { text: readFencedText(file, limits), rel: file.rel };
}
