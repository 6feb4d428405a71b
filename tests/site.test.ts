// 课程网站的生成器（site/lib）：不开浏览器、不构建，只查它从仓库读出来的东西对不对。
// 真浏览器里的端到端测试在 site/e2e（npm run test:e2e）。
import { createMarkdownRenderer } from "vitepress";
import { describe, expect, it } from "vitest";
import { LAYOUT, readChain } from "../site/lib/chain.ts";
import { MIN_FOLD, apiCards, declarations, newLines, segments } from "../site/lib/codeview.ts";
import { loadCourse, readRootReadme } from "../site/lib/course.ts";
import { LESSONS } from "./support/lessons.ts";

const lessons = loadCourse();

describe("网站生成器", () => {
  it("认出的课和测试认出的课一样", () => {
    expect(lessons.map((l) => l.id)).toEqual(LESSONS);
    for (const l of lessons) {
      expect(l.topic, `${l.id} README H1`).not.toBe(l.heading);
      expect(l.motto, `${l.id} motto`).not.toBe("");
    }
  });

  it("折叠：新行前后留两行上下文，连续 MIN_FOLD 行以上的旧代码才折叠", () => {
    expect(segments(30, new Set([10]))).toEqual([
      { kind: "fold", from: 1, to: 7 },
      { kind: "lines", from: 8, to: 12 },
      { kind: "fold", from: 13, to: 30 },
    ]);
    // 第 3 行和第 12 行是新的：上下文之间只剩 6–9 这 4 行旧代码（少于 MIN_FOLD），照常显示，不折叠
    expect(MIN_FOLD).toBe(5);
    expect(segments(40, new Set([3, 12]))).toEqual([
      { kind: "lines", from: 1, to: 14 },
      { kind: "fold", from: 15, to: 40 },
    ]);
    expect(segments(12, undefined)).toEqual([{ kind: "lines", from: 1, to: 12 }]);
  });

  it("每课的新行都落在文件里；第一课全部是新的", () => {
    lessons.forEach((l, i) => {
      const fresh = newLines(lessons[i - 1]?.code, l.code);
      if (i === 0) expect(fresh).toBeUndefined();
      else {
        const total = l.code.split("\n").length;
        expect(fresh?.size, `${l.id} adds lines`).toBeGreaterThan(0);
        for (const n of fresh ?? []) expect(n >= 1 && n <= total).toBe(true);
      }
    });
  });

  it("折叠条上的 @since 和 API 报告里的 @since 一致", () => {
    for (const l of lessons) {
      const decls = declarations(l.code);
      for (const [key, value] of Object.entries(l.api)) {
        if (!key.endsWith("@since") || !(l.api[key.slice(0, -6)] ?? "").startsWith("export")) continue;
        const name = key.slice(0, -6);
        expect(decls.find((d) => d.name === name)?.since, `${l.id} ${name}`).toBe(value);
      }
    }
  });

  it("API 卡片：s04 新声明 ToolCall、ToolRegistry 多了 #run；s03 的 Provider 是 U1 升级", () => {
    const byId = (id: string) => lessons.find((l) => l.id === id);
    const s03 = byId("s03");
    const s04 = byId("s04");
    if (s03 === undefined || s04 === undefined) throw new Error("s03/s04 missing");
    const cards04 = apiCards("s04", s03.api, s04.api, declarations(s04.code));
    expect(cards04.find((c) => c.owner === "ToolCall")?.kind).toBe("new");
    const registry = cards04.find((c) => c.owner === "ToolRegistry");
    expect(registry?.kind).toBe("member");
    expect(registry?.members.map((m) => m.key)).toContain("#run");
    const s02 = byId("s02");
    if (s02 === undefined) throw new Error("s02 missing");
    const provider = apiCards("s03", s02.api, s03.api, declarations(s03.code)).find((c) => c.owner === "Provider");
    expect(provider?.kind).toBe("upgrade");
    expect(provider?.changes.some((c) => c.key === "Provider.complete" && c.to === null && c.why !== undefined)).toBe(true);
  });

  it("首页链路图：根 README 那张表的每一步都排进了图里，点名的课都存在", async () => {
    const md = await createMarkdownRenderer(process.cwd());
    const chain = readChain(readRootReadme(), md);
    expect(chain.rows.map((r) => r.step).sort()).toEqual([...LAYOUT.before, ...LAYOUT.loop, ...LAYOUT.after].sort());
    const ids = new Set(lessons.map((l) => l.id));
    for (const row of chain.rows) {
      const named = row.lessons.match(/s\d\d/g) ?? [];
      expect(named.length, `step ${row.step} names a lesson`).toBeGreaterThan(0);
      for (const id of named) expect(ids.has(id), `${row.step} → ${id}`).toBe(true);
    }
    expect(chain.intro).not.toBe("");
  });
});
