// 真实模型模式（live/）的测试：项目的 AGENTS.md 和工具守同一道工作目录围栏。解开链接以后在工作目录外的（直接链出去、
// 链到链出去的链接、经过链出去的目录、藏在隐藏目录里），不加载，也绝不出现在发给模型服务器的任何请求里（用目录外的金丝雀文件验证）。
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ENV } from "../../live/config.ts";
import { EXIT } from "../../live/main.ts";
import { type ServerReply, textAnswer } from "./replay-server.ts";
import { callAnswer, runAgainst, sameUnderSplits, useWorkspace, utf8, workspace } from "./support.ts";

useWorkspace();

describe("AGENTS.md 的围栏：和工具守同一道，解开链接后在工作目录外的不加载、stderr 说一句，绝不发给模型服务器", () => {
  const CANARY = `CANARY-${Math.random().toString(36).slice(2)}-金丝雀`;
  let fence: string;
  /** 每种情形一个项目目录：名字 → 目录。 */
  const projects: Record<string, string> = {};
  beforeAll(() => {
    fence = join(workspace.base, "fence");
    const outside = join(fence, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "canary.txt"), `# 别读我\n${CANARY}\n`);
    const project = (name: string, setup: (dir: string) => void): void => {
      const dir = join(fence, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "README.md"), "# 项目\n");
      setup(dir);
      projects[name] = dir;
    };
    project("file-link", (dir) => symlinkSync("../outside/canary.txt", join(dir, "AGENTS.md")));
    project("absolute-link", (dir) => symlinkSync(join(outside, "canary.txt"), join(dir, "AGENTS.md")));
    project("dir-link", (dir) => {
      symlinkSync("../outside", join(dir, "docs")); // 看上去在里面的目录，其实是链到外面
      symlinkSync("docs/canary.txt", join(dir, "AGENTS.md"));
    });
    project("chained-link", (dir) => {
      symlinkSync("../outside/canary.txt", join(dir, "notes.md"));
      symlinkSync("notes.md", join(dir, "AGENTS.md")); // 链到里面的一个链接，它再链到外面
    });
    project("hidden-link", (dir) => {
      mkdirSync(join(dir, ".private"));
      writeFileSync(join(dir, ".private", "notes.md"), CANARY);
      symlinkSync(".private/notes.md", join(dir, "AGENTS.md"));
    });
    project("inside-link", (dir) => {
      mkdirSync(join(dir, "notes"));
      writeFileSync(join(dir, "notes", "agents.md"), "这个项目用 pnpm。");
      symlinkSync("notes/agents.md", join(dir, "AGENTS.md"));
    });
    project("real", (dir) => writeFileSync(join(dir, "AGENTS.md"), "这个项目用 pnpm。"));
    project("control", (dir) => writeFileSync(join(dir, "AGENTS.md"), CANARY));
    symlinkSync(projects.real, join(fence, "real-via-link")); // 工作目录本身经过一个链接
    projects["real-via-link"] = join(fence, "real-via-link");
  });

  /** 模型先去读 AGENTS.md（看围栏是否也挡住了工具），再回答。 */
  const script = (n: number): ServerReply => ({ chunks: [n === 0 ? callAnswer("read", '{"path":"AGENTS.md"}', "call_1", "先看看说明🙂。") : textAnswer(["好的。"])] });
  const trusted = { [ENV.trust]: "trusted" };

  it.each<[string, string]>([
    ["file-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["absolute-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["dir-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["chained-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["hidden-link", '"AGENTS.md" is a symlink to a hidden file or folder'],
  ])("%s：不加载，stderr 一行说明原因；金丝雀不在任何请求正文里，也不在输出里", async (name, reason) => {
    const run = await runAgainst(script, trusted, { cwd: projects[name] });
    expect(run.code).toBe(EXIT.answered);
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual([`AGENTS.md 没有加载：${reason}（它得是工作目录里的文本文件）`]);
    expect(run.bodies).toHaveLength(2);
    for (const body of run.bodies) expect(body).not.toContain(CANARY);
    expect(run.bodies[0]).not.toContain("# 项目说明"); // 系统提示里没有项目说明这一节
    expect(JSON.parse(run.bodies[1]).messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: `error: ${reason}` });
    expect([run.stdout, ...run.stderr].join("\n")).not.toContain(CANARY);
  });

  it("不信任时也一样：围栏先说不能读，不再提信任", async () => {
    const run = await runAgainst(script, {}, { cwd: projects["dir-link"] });
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual([
      'AGENTS.md 没有加载："AGENTS.md" is a symlink that points outside the working directory（它得是工作目录里的文本文件）',
    ]);
    for (const body of run.bodies) expect(body).not.toContain(CANARY);
  });

  it.each(["inside-link", "real", "real-via-link"])("%s：在工作目录里的照常加载（围栏不误伤：指向里面的链接、工作目录本身是链接）", async (name) => {
    const run = await runAgainst(script, trusted, { cwd: projects[name] });
    expect(run.code).toBe(EXIT.answered);
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual(["AGENTS.md 已加载（MINI_PI_TRUST=trusted）"]);
    expect(JSON.parse(run.bodies[0]).messages[0].content).toContain("## AGENTS.md\n这个项目用 pnpm。");
  });

  it("检查本身会失败：金丝雀真在工作目录里时，同样的检查在请求正文里找到了它", async () => {
    const run = await runAgainst(script, trusted, { cwd: projects.control });
    expect(run.stderr).toContain("AGENTS.md 已加载（MINI_PI_TRUST=trusted）");
    expect(run.bodies.filter((body) => body.includes(CANARY))).toHaveLength(2);
  });

  it("dir-link 的整段对话，回答的字节任意切开送来，结果一样（fast-check）", async () => {
    const bytes = utf8(script(0).chunks[0] as string);
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst((n) => (n === 0 ? { chunks } : script(n)), trusted, { cwd: projects["dir-link"] }), 10);
    expect(whole.code).toBe(EXIT.answered);
    for (const body of whole.bodies) expect(body).not.toContain(CANARY);
  });
});
