// 行为测试（s12 起）：包的两个零件单独拿出来查，不经过 installPackage。模板工具怎么把参数填回去、叠一层的 loader 怎么合并资料，
// 装包的测试只看得到合起来的结果；这里各自守住 README「第四步」「第五步」说的事（练习的第 2、3 阶段各靠它们变绿，tooling/stages.ts）。
import { expect, it } from "vitest";
import type { LessonModule, Loader, ToolLike } from "../../tooling/lesson.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";

type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
/** s12 起才有的两个导出（LessonModule 只列各课共有的）。 */
type PackageParts = LessonModule & {
  templateTool(name: string, template: string, from: string): ToolLike;
  PackageResourceLoader: new (below: Loader, resources: Resource[]) => Loader;
};

forLessonsFrom("packages", (_id, load) => {
  it("模板工具：每个 {占位} 是一个参数，调用时按参数填回去；没给的占位填空，只认参数自己的键（constructor 不算给了）", async () => {
    const { templateTool } = (await load()) as PackageParts;
    const tool = templateTool("commit", "{type}: {summary} ({type})", "git-helpers");
    expect(tool.spec.name).toBe("commit");
    expect(Object.keys(tool.spec.input)).toEqual(["type", "summary"]);
    expect(tool.spec.description).toContain("git-helpers");
    expect(tool.handler({ type: "feat", summary: "add store" })).toBe("feat: add store (feat)");
    expect(tool.handler({ type: "fix" })).toBe("fix:  (fix)");
    expect(templateTool("t", "{constructor}|{toString}", "p").handler({})).toBe("|");
  });

  it("叠一层的 loader：下面那层的资料在前，同种又同名的先来的算数，信任照旧由下面那层和 ResourceLoader 过滤", async () => {
    const { ResourceLoader, PackageResourceLoader } = (await load()) as PackageParts;
    const below = new ResourceLoader([
      { kind: "agents", name: "AGENTS.md", content: "project rules" },
      { kind: "skill", name: "review", content: "project review" },
    ]);
    const layered = new PackageResourceLoader(below, [
      { kind: "skill", name: "review", content: "package review" },
      { kind: "skill", name: "commit", content: "package commit" },
      { kind: "prompt", name: "review", content: "package prompt" },
    ]);
    const trusted = layered.load("trusted").map((r) => `${r.kind}:${r.name}=${r.content}`);
    expect(trusted).toEqual(["agents:AGENTS.md=project rules", "skill:review=project review", "skill:commit=package commit", "prompt:review=package prompt"]);
    // 不信任时两层都一份不交：包这一层的资料不能绕过信任
    expect(layered.load("untrusted")).toEqual([]);
    // 每次交出的是拷贝：改了它，下一次照旧
    layered.load("trusted")[2].content = "changed";
    expect(layered.load("trusted")[2].content).toBe("package commit");
  });
});
