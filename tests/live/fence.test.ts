// 真实模型模式（live/）的测试之一：围栏在「查完」和「读」之间的空隙。
// resolveInside 查的时候路径在工作目录里；读之前，路径上的任何一段都可能被换掉：目录换成指到外面的链接、
// 文件换成链接或命名管道、文件变大。readFencedText 打开之后再确认一遍，这里把「查」和「读」拆开，在中间动手脚。
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type FencedPath, readBytes, readFencedText, resolveInside } from "../../live/fence.ts";
import { createWorkspaceTools } from "../../live/tools.ts";
import { useWorkspace, workspace } from "./support.ts";

useWorkspace();

const CANARY = `CANARY-${Math.random().toString(36).slice(2)}-金丝雀`;
const LIMITS = { maxFileBytes: 64, maxEntries: 100, maxMatches: 10, maxFilesSearched: 100 };

/** 查完之后动的手脚。part 是被换掉的那一段：0 是最外层的目录，dirs.length 是文件本身。 */
type Swap = { kind: "dir-link" | "file-link" | "fifo" | "grow"; part: number };

let outside: string;
beforeAll(() => {
  outside = join(workspace.base, "race-outside");
  mkdirSync(outside);
});

/** 一个新的工作目录，里面 dirs 嵌套着 a.txt；外面有一份同样形状的目录，文件里是金丝雀。 */
function setUp(dirs: string[]): { root: string; file: string } {
  const root = mkdtempSync(join(workspace.base, "race-"));
  const mirror = mkdtempSync(join(outside, "m-"));
  mkdirSync(join(root, ...dirs), { recursive: true });
  mkdirSync(join(mirror, ...dirs), { recursive: true });
  writeFileSync(join(root, ...dirs, "a.txt"), "inside");
  writeFileSync(join(mirror, ...dirs, "a.txt"), CANARY);
  Object.assign(mirrors, { [root]: mirror });
  return { root, file: [...dirs, "a.txt"].join("/") };
}
const mirrors: Record<string, string> = {};

/** 查完、读之前：把第 part 段换掉。 */
function swap(root: string, dirs: string[], { kind, part }: Swap): void {
  const segments = [...dirs, "a.txt"];
  const at = Math.min(part, segments.length - 1);
  const here = join(root, ...segments.slice(0, at + 1));
  const there = join(mirrors[root] as string, ...segments.slice(0, at + 1));
  if (kind === "grow") return appendFileSync(join(root, ...segments), "x".repeat(LIMITS.maxFileBytes * 2));
  const target = kind === "dir-link" ? here : join(root, ...segments);
  renameSync(target, `${target}.old`);
  if (kind === "fifo") execFileSync("mkfifo", [target]);
  else symlinkSync(kind === "dir-link" ? there : join(mirrors[root] as string, ...segments), target);
}

const dirsArb = fc.array(fc.constantFrom("src", "lib", "deep", "x"), { minLength: 1, maxLength: 3 });
const swapArb = fc.record({ kind: fc.constantFrom<Swap["kind"]>("dir-link", "file-link", "fifo", "grow"), part: fc.nat({ max: 3 }) });

describe("围栏的空隙：查完到读之间路径被换掉，读到的绝不是工作目录外的东西", () => {
  it("没动手脚时照常读到（对照）", () => {
    const { root, file } = setUp(["src"]);
    expect(readFencedText(resolveInside(root, file), LIMITS)).toBe("inside");
  });

  it("任意一段、任意换法（目录换成外链、文件换成外链、换成命名管道、文件变大）：readFencedText 抛错，不挂住，不交出金丝雀（fast-check）", () => {
    fc.assert(
      fc.property(dirsArb, swapArb, (dirs, how) => {
        const { root, file } = setUp(dirs);
        const checked: FencedPath = resolveInside(root, file);
        swap(root, dirs, how);
        let answer: string | undefined;
        let problem = "";
        try {
          answer = readFencedText(checked, LIMITS);
        } catch (error) {
          problem = (error as Error).message;
        }
        expect(answer).toBeUndefined();
        expect(problem).not.toContain(CANARY);
        expect(problem).not.toContain(workspace.base); // 报错会作为工具结果发给模型：不带真实的绝对路径
        const expected = how.kind === "grow" ? /(is 134 B, over|is growing past) the 64 B limit/ : how.kind === "fifo" ? /is not a regular file/ : /changed while it was being opened/;
        expect(problem).toMatch(expected);
      }),
      { numRuns: 40 },
    );
  });

  it("检查本身会失败：不再确认、照查到的路径直接读，同样的手脚就把金丝雀读了进来", () => {
    const { root, file } = setUp(["src", "deep"]);
    const checked = resolveInside(root, file);
    swap(root, ["src", "deep"], { kind: "dir-link", part: 0 });
    expect(readFileSync(checked.abs, "utf8")).toBe(CANARY);
  });

  it("grep 走目录时每个文件也走同一道确认（readBytes）：目录照常搜得到；列完目录、读文件之前目录被换成外链，读不到金丝雀", () => {
    const { root } = setUp(["src"]);
    const grep = createWorkspaceTools(root, LIMITS).find((t) => t.spec.name === "grep");
    expect(grep?.handler({ pattern: "inside", path: "." })).toBe("src/a.txt:1: inside");
    const base = resolveInside(root, ".").base;
    swap(root, ["src"], { kind: "dir-link", part: 0 });
    expect(() => readBytes({ base, abs: join(base, "src", "a.txt"), rel: join("src", "a.txt") }, "src/a.txt", LIMITS.maxFileBytes)).toThrow(
      '"src/a.txt" changed while it was being opened and now points outside the working directory',
    );
  });
});
