// 真实模型模式（live/）的测试：工作目录里的三个只读工具（read、ls、grep）和它们的围栏。每次拒绝都是一条 error: 结果，
// 照 s12 的 ToolRegistry.run 登记、调用。
import { describe, expect, it } from "vitest";
import { createWorkspaceTools } from "../../live/tools.ts";
import { ToolRegistry } from "../../s12_packages/code.ts";
import { useWorkspace, workspace } from "./support.ts";

useWorkspace();

describe("工作目录工具：只读，出不了工作目录，每次拒绝都是一条 error: 结果", () => {
  const LIMITS = { maxFileBytes: 1024, maxEntries: 100, maxMatches: 3, maxFilesSearched: 100 };
  const registry = (): ToolRegistry => {
    const r = new ToolRegistry();
    for (const tool of createWorkspaceTools(workspace.work, LIMITS)) r.register(tool);
    return r;
  };
  const run = (name: string, input: Record<string, string>): string => registry().run({ id: "t", name, input });

  it.each<[string, string, Record<string, string>, string]>([
    ["..", "read", { path: "../outside/secret.txt" }, 'error: "../outside/secret.txt" is outside the working directory'],
    ["藏在中间的 ..", "ls", { path: "src/../../outside" }, 'error: "src/../../outside" is outside the working directory'],
    ["绝对路径", "read", { path: "/etc/passwd" }, 'error: absolute paths are not allowed ("/etc/passwd"); use a path relative to the working directory'],
    ["指到目录外的文件链接", "read", { path: "link-out.txt" }, 'error: "link-out.txt" is a symlink that points outside the working directory'],
    ["指到目录外的目录链接", "ls", { path: "link-out-dir" }, 'error: "link-out-dir" is a symlink that points outside the working directory'],
    ["经过目录外链接的路径", "read", { path: "link-out-dir/secret.txt" }, 'error: "link-out-dir/secret.txt" is a symlink that points outside the working directory'],
    ["grep 从目录外链接开始", "grep", { pattern: "TODO", path: "link-out-dir" }, 'error: "link-out-dir" is a symlink that points outside the working directory'],
    ["隐藏文件", "read", { path: ".env" }, 'error: ".env" is hidden (.env); hidden files and folders are off limits'],
    ["隐藏目录里的文件", "read", { path: ".git/config" }, 'error: ".git/config" is hidden (.git); hidden files and folders are off limits'],
    ["指向隐藏文件的链接", "read", { path: "env-link" }, 'error: "env-link" is a symlink to a hidden file or folder'],
    ["超过大小上限", "read", { path: "big.txt" }, 'error: "big.txt" is 2.0 KB, over the 1.0 KB limit'],
    ["二进制（有 NUL）", "read", { path: "logo.png" }, 'error: "logo.png" looks like a binary file; only text files can be read'],
    ["二进制（不是 UTF-8）", "read", { path: "latin1.txt" }, 'error: "latin1.txt" looks like a binary file; only text files can be read'],
    ["不存在", "read", { path: "nope.md" }, 'error: no such file or folder: "nope.md"'],
    ["坏链接", "read", { path: "broken-link" }, 'error: "broken-link" is a broken or unreadable link'],
    ["read 一个目录", "read", { path: "src" }, 'error: "src" is a folder; use ls to list it'],
    ["ls 一个文件", "ls", { path: "README.md" }, 'error: "README.md" is a file; use read to see it'],
    ["grep 空模式", "grep", { pattern: "", path: "." }, "error: pattern is empty"],
    ["参数不全（s12 的 zod 校验照旧）", "grep", { pattern: "x" }, 'error: invalid arguments for tool "grep": argument "path" is missing'],
  ])("%s", (_name, tool, input, expected) => {
    expect(run(tool, input)).toBe(expected);
  });

  it("read：读文本文件，链接指向目录里面的照读，空文件说明是空的", () => {
    expect(run("read", { path: "README.md" })).toBe("# demo\n一个示例项目。TODO: 写文档\n");
    expect(run("read", { path: "./src/../link-in.ts" })).toBe("export const x = 1; // todo later\n// TODO: more\n");
    expect(run("read", { path: "src/empty.ts" })).toBe("(empty file)");
  });

  it("ls：目录带 /，隐藏项不列只计数，指向禁区的链接标出来", () => {
    expect(run("ls", { path: "." })).toBe(
      [
        "README.md",
        "big.txt",
        "broken-link (link to somewhere off limits)",
        "env-link (link to somewhere off limits)",
        "latin1.txt",
        "link-in.ts",
        "link-out-dir (link to somewhere off limits)",
        "link-out.txt (link to somewhere off limits)",
        "logo.png",
        "node_modules/",
        "src/",
        "(2 hidden entries not shown)",
      ].join("\n"),
    );
    expect(run("ls", { path: "src/" })).toBe("empty.ts\nmain.ts");
  });

  it("grep：不进隐藏目录、node_modules、链接，跳过二进制和超大文件；全小写时不分大小写；到上限就停", () => {
    expect(run("grep", { pattern: "TODO", path: "." })).toBe(
      ["README.md:2: 一个示例项目。TODO: 写文档", "src/main.ts:2: // TODO: more", "(skipped 3 binary or oversized files)"].join("\n"),
    );
    expect(run("grep", { pattern: "todo", path: "src" })).toBe("src/main.ts:1: export const x = 1; // todo later\nsrc/main.ts:2: // TODO: more");
    expect(run("grep", { pattern: "e", path: "." }).split("\n")).toEqual([
      "README.md:1: # demo",
      "src/main.ts:1: export const x = 1; // todo later",
      "src/main.ts:2: // TODO: more",
      "(stopped at 3 matches)",
      "(skipped 3 binary or oversized files)",
    ]);
    expect(run("grep", { pattern: "nothing-like-this", path: "src/main.ts" })).toBe('no matches for "nothing-like-this" in src/main.ts');
  });
});
