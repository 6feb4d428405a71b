// 网页回放（site/replay/sNN.json）是从课里录出来的，不是手写的：这里现录一遍，必须和提交的文件逐字相同。
// 不同就说明课、场景或录制器改了：跑 npm run gen:replay 重录，评审时看 diff。
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordReplay, replayLessons } from "../site/lib/record/replay.ts";
import type { Replay } from "../site/lib/replay-types.ts";
import { LESSONS, ROOT, lessonDir } from "../tooling/course.ts";

const DIR = join(ROOT, "site", "replay");
const lessons = replayLessons(LESSONS);

describe("网页回放", () => {
  it("每一课都有回放，没有多余的回放文件", () => {
    expect(lessons).toEqual(LESSONS);
    const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith(".json")).sort() : [];
    expect(files).toEqual(lessons.map((id) => `${id}.json`));
  });

  for (const lesson of lessons) {
    it(`${lesson}：提交的回放就是现在录出来的`, async () => {
      const file = join(DIR, `${lesson}.json`);
      const committed = existsSync(file) ? readFileSync(file, "utf8") : "(missing)";
      const fresh = `${JSON.stringify(await recordReplay(lesson), null, 2)}\n`;
      expect(committed, `site/replay/${lesson}.json is stale: run npm run gen:replay and review the diff`).toBe(fresh);
    });
  }

  it("s04 的回放走到了出错的工具结果（R4 ②）", async () => {
    const replay = await recordReplay("s04");
    const tool = replay.steps.find((s) => s.kind === "tool");
    expect(tool?.detail).toBe('read({"path":"src/app.ts"})\n→ "error: no such file: src/app.ts"');
    const output = replay.steps.flatMap((s) => s.output ?? []);
    expect(output).toContain('  ← "error: no such file: src/app.ts"');
  });

  it("s12 装包那一步说的是 s12 做的事：包的资料叠一层 PackageResourceLoader（D40），不是换一个新 loader", () => {
    const code = readFileSync(join(ROOT, lessonDir("s12"), "code.ts"), "utf8");
    expect(code).toContain("agent.loader = new PackageResourceLoader(agent.loader, resources);");
    const replay = JSON.parse(readFileSync(join(DIR, "s12.json"), "utf8")) as Replay;
    const installed = replay.steps.filter((s) => s.kind === "package" && !s.title.includes("拒绝"));
    expect(installed.length).toBeGreaterThan(0);
    for (const step of installed) {
      expect(step.note).toContain("PackageResourceLoader");
      expect(step.note).toContain("D40");
      expect(step.note).not.toContain("D13");
    }
  });
});
