// 浏览器测试：读一课。从首页点进 s04（站内跳转，代码片段另取）→ 折叠、展开旧代码 → 切到差异和 API 标签 →
// 回放一步步走到工具结果 → 跳转条；关掉 JavaScript 再读一遍；每课的差异先删后加、能并排看、能比较任意两课；
// 课文里的 Mermaid 图画成图（浅色、深色各一份）；毕业一章排在 s12 后面。
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, SHOTS, at, chapter, lessons, live, newContext, open, problemsOf, replay, s04, server, sitePath, useReader } from "./browser.ts";

useReader();

/** 从首页点进 s04（站内跳转），等组件挂好（回放变成播放器）、代码片段取到；fragments 是这一路另取的片段。 */
async function fromHome(): Promise<{ page: Page; fragments: string[] }> {
  const page = await open("/");
  const fragments: string[] = [];
  page.on("request", (r) => {
    const path = sitePath(r.url());
    if (path.startsWith("/lp/") && path.endsWith(".html")) fragments.push(path);
  });
  await page.locator(`a.lp-lesson[href="${at("/s04.html")}"]`).click();
  await page.waitForURL(/\/s04\.html$/);
  await expect.poll(() => page.locator("h1").first().innerText()).toContain(s04?.topic ?? "?");
  await live(page);
  await page.locator('.lp-raw[data-raw="s04.tabs"][data-ready="yes"]').waitFor();
  return { page, fragments };
}

describe("课程网站（真浏览器）：从首页进 s04（站内跳转）", () => {
  it("代码片段另取、只取一次；本节新加的行可见，旧代码默认折叠、点开能看；行号由 CSS 计数器数；一键展开、一键折叠", async () => {
    expect(s04).toBeDefined();
    const { page, fragments } = await fromHome();
    expect(fragments).toEqual(["/lp/s04.tabs.html"]);
    // 本节新加的行高亮、可见；旧代码默认折叠
    const fresh = page.locator(".lp-panel-code .lp-code-inner div.n").first();
    expect(await fresh.isVisible()).toBe(true);
    const fold = page.locator(".lp-panel-code details.lp-fold").first();
    expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const hiddenLine = fold.locator("div[id]").first();
    expect(await hiddenLine.isVisible()).toBe(false);
    await fold.locator("summary").click();
    expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await hiddenLine.isVisible()).toBe(true);
    // 行号由 CSS 计数器数出来：每一段开头把计数器拨到这一段第一行的前一行
    const segments = await page.locator(".lp-panel-code .lp-code-inner > *").evaluateAll((els) =>
      els.map((el) => ({ reset: getComputedStyle(el).counterReset, first: el.querySelector("div[id]")?.id ?? "" })),
    );
    expect(segments.length).toBeGreaterThan(3);
    for (const seg of segments) expect(seg.reset).toBe(`ln ${Number(seg.first.slice(1)) - 1}`);
    await fold.locator("summary").click();
    expect(await hiddenLine.isVisible()).toBe(false);
    // 一键展开、一键折叠
    await page.locator('[data-action="unfold-all"]').click();
    const folds = page.locator(".lp-panel-code details.lp-fold");
    const total = await folds.count();
    expect(total).toBeGreaterThan(3);
    expect(await folds.evaluateAll((ds) => ds.filter((d) => (d as HTMLDetailsElement).open).length)).toBe(total);
    await page.locator('[data-action="fold-all"]').click();
    expect(await folds.evaluateAll((ds) => ds.filter((d) => (d as HTMLDetailsElement).open).length)).toBe(0);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("差异标签和 s03 比、有加的行，代码面板收起；API 标签上 ToolCall 是新声明，已有的 ToolRegistry 多了 run", async () => {
    const { page } = await fromHome();
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect(await page.locator(".lp-panel-diff").isVisible()).toBe(true);
    expect(await page.locator(".lp-panel-code").isVisible()).toBe(false);
    expect(await page.locator(".lp-panel-diff .lp-code-inner > div.a").count()).toBeGreaterThan(50);
    await page.locator('label[for="lp-tab-s04-api"]').click();
    const toolCall = page.locator(".lp-card", { has: page.locator(".lp-card-name", { hasText: /^ToolCall$/ }) });
    expect(await toolCall.locator(".lp-card-badge").innerText()).toBe("新声明");
    const registry = page.locator(".lp-card", { has: page.locator(".lp-card-name", { hasText: /^ToolRegistry$/ }) });
    expect(await registry.innerText()).toContain("#run");
    await page.locator('label[for="lp-tab-s04-code"]').click();
    expect(await page.locator(".lp-panel-code").isVisible()).toBe(true);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("回放一步一步点「下一步」走到第一个工具结果；再走一步，结果存进历史，终端打出 ← 那一行", async () => {
    const { page } = await fromHome();
    const expected = replay.steps.findIndex((s) => s.kind === "tool");
    expect(expected).toBeGreaterThan(0);
    const current = page.locator('.lp-replay-step[data-role="current"]');
    for (let i = 0; i < 40 && (await current.getAttribute("data-kind")) !== "tool"; i++) await page.locator('[data-action="next"]').click();
    expect(await current.getAttribute("data-kind")).toBe("tool");
    expect(await page.locator('[data-role="pos"]').innerText()).toBe(String(expected + 1));
    expect(await current.locator(".lp-kind").innerText()).toBe("工具结果");
    expect(await current.locator('[data-role="detail"]').innerText()).toBe(replay.steps[expected].detail);
    expect(await current.locator('[data-role="detail"]').innerText()).toContain('→ "error: no such file: src/app.ts"');
    expect(await current.locator('[data-role="note"]').innerText()).toContain("R4 ②");
    expect(await page.locator('[data-role="terminal"]').innerText()).toContain("assistant: 我先读一下 src/app.ts。");
    await page.locator('[data-action="next"]').click();
    await expect.poll(() => page.locator('[data-role="history"] li').last().innerText()).toContain("toolResult(call_1): error: no such file: src/app.ts");
    expect(await page.locator('[data-role="terminal"]').innerText()).toContain('  ← "error: no such file: src/app.ts"');
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("跳转条上「上一课」「下一课」都带主题", async () => {
    const { page } = await fromHome();
    const next = lessons.find((l) => l.id === s04?.next);
    const prev = lessons.find((l) => l.id === s04?.prev);
    expect(await page.locator('.lp-jump a[rel="next"] small').innerText()).toBe(`${next?.id} ${next?.topic}`);
    expect(await page.locator('.lp-jump a[rel="prev"] small').innerText()).toBe(`${prev?.id} ${prev?.topic}`);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });
});

describe("课程网站（真浏览器）：课页", () => {
  it("不开 JavaScript 也能读：课文、折叠、标签、全部回放步骤都在", async () => {
    const page = await open("/s04.html", { javaScript: false });
    expect(await page.locator("h1").first().innerText()).toContain(s04?.topic ?? "?");
    expect(await page.locator("#问题").count()).toBe(1);
    const fold = page.locator(".lp-panel-code details.lp-fold").first();
    const hiddenLine = fold.locator("div[id]").first();
    expect(await hiddenLine.isVisible()).toBe(false);
    await fold.locator("summary").click();
    expect(await hiddenLine.isVisible()).toBe(true);
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect(await page.locator(".lp-panel-diff").isVisible()).toBe(true);
    expect(await page.locator('.lp-panel-diff [data-view="unified"] .lp-code-inner > div.d').first().isVisible()).toBe(true);
    expect(await page.locator('.lp-replay[data-live="no"] .lp-replay-static > li').count()).toBe(replay.steps.length);
    expect(await page.locator('.lp-replay[data-live="no"] .lp-replay-static > li.is-own').count()).toBe(replay.steps.filter((s) => s.lesson === "s04").length);
    expect(await page.locator('[data-action="unfold-all"]').count()).toBe(0);
    const home = await page.goto(`${server.url}${at("/")}`);
    expect(home?.status()).toBe(200);
    expect(await page.locator(".lp-chain-step").count()).toBe(7);
    await page.context().close();
  });

  it("差异：每课的差异标签里，同一处改动先列删掉的行再列加上的", async () => {
    for (const lesson of lessons.slice(1)) {
      const page = await open(`/${lesson.id}.html`, { javaScript: false });
      const order = await page.locator('.lp-panel-diff [data-view="unified"] .lp-code-inner').evaluate((inner) => {
        const bad: string[] = [];
        let sawAdd = false;
        for (const row of inner.children) {
          if (row.classList.contains("a")) sawAdd = true;
          else if (row.classList.contains("d")) {
            if (sawAdd) bad.push(row.textContent ?? "?");
          } else sawAdd = false;
        }
        return bad;
      });
      expect(order, `${lesson.id}: removed lines after added lines in one hunk`).toEqual([]);
      await page.context().close();
    }
  });

  it("差异的并排视图左旧右新：左边只有旧行（删掉的、没变的），右边只有新行，两边行数相同、一行一行对齐", async () => {
    const page = await open("/s04.html?tab=diff&view=split", { width: DESKTOP });
    await page.locator('.lp-panel-diff [data-view="split"]').waitFor();
    const sides = await page.locator('.lp-panel-diff [data-view="split"]').evaluate((split) => {
      const rows = (side: string): Element[] => [...split.querySelectorAll(`.lp-side-${side} .lp-code-inner > div`)];
      const tops = (side: string): number[] => rows(side).map((r) => Math.round(r.getBoundingClientRect().top));
      return {
        left: rows("old").map((r) => r.className),
        right: rows("new").map((r) => r.className),
        aligned: JSON.stringify(tops("old")) === JSON.stringify(tops("new")),
      };
    });
    expect(sides.left.length).toBe(sides.right.length);
    expect(sides.aligned).toBe(true);
    expect(sides.left).not.toContain("a");
    expect(sides.right).not.toContain("d");
    expect(sides.left.filter((c) => c === "d").length).toBeGreaterThan(10);
    await page.context().close();
  });

  it("比较任意两课：s02 → s05，合并和并排，网址记着", async () => {
    const compare = await open("/compare.html?from=s02&to=s05", { width: DESKTOP });
    await compare.locator('.lp-compare[data-live="yes"] [data-view="unified"]').waitFor();
    expect(await compare.locator('[data-role="from"]').inputValue()).toBe("s02");
    expect(await compare.locator('[data-role="to"]').inputValue()).toBe("s05");
    const stats = await compare.locator('[data-role="stats"]').innerText();
    expect(stats).toMatch(/^\+\d+ −\d+$/);
    expect(await compare.locator(".lp-compare-out .lp-code-inner > div.a").count()).toBe(Number(/\+(\d+)/.exec(stats)?.[1]));
    await compare.locator('[data-role="to"]').selectOption("s12");
    await compare.locator('.lp-compare [data-action="split"]').click();
    await compare.locator('.lp-compare-out [data-view="split"]').waitFor();
    await expect.poll(() => new URL(compare.url()).search).toBe("?from=s02&to=s12&view=split");
    await compare.screenshot({ path: join(SHOTS, "compare.png") });
    expect(problemsOf(compare)).toEqual([]);
    await compare.context().close();
  });

  it("课文里的 Mermaid 流程图画成了图：浅色模式看浅色那份，深色模式看深色那份，不再是一段源码", async () => {
    const withDiagram = lessons.filter((l) => l.readme.includes("```mermaid"));
    for (const lesson of withDiagram) {
      const page = await open(`/${lesson.id}.html`, { width: DESKTOP });
      expect(await page.locator("div.language-mermaid").count(), lesson.id).toBe(0);
      const figure = page.locator(".lp-diagram").first();
      await figure.scrollIntoViewIfNeeded();
      const light = figure.locator("img.lp-diagram-light");
      await expect.poll(() => light.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)).toBe(true); // 等图载入（expect.poll 的上限是防卡死的那个，site/vitest.e2e.config.ts）
      expect(await figure.locator("img.lp-diagram-dark").isVisible()).toBe(false);
      expect(problemsOf(page), lesson.id).toEqual([]);
      await page.context().close();
    }
    const dark = await newContext({ viewport: { width: DESKTOP, height: 900 }, colorScheme: "dark" });
    const page = await dark.newPage();
    await page.goto(`${server.url}${at("/s04.html")}`);
    const figure = page.locator(".lp-diagram").first();
    await figure.scrollIntoViewIfNeeded();
    expect(await figure.locator("img.lp-diagram-dark").isVisible()).toBe(true);
    expect(await figure.locator("img.lp-diagram-light").isVisible()).toBe(false);
    await page.screenshot({ path: join(SHOTS, "s04-1440-diagram-dark.png") });
    await dark.close();
  });

  it("毕业一章排在 s12 后面：侧栏「课程」一组的最后一项，s12 的跳转条和页底都指向它；页上有对照表（每课一行，链到那一课）和三个练习", async () => {
    if (chapter === undefined) throw new Error("graduation/README.md is missing");
    const s12 = await open("/s12.html", { width: DESKTOP });
    await live(s12);
    const items = await s12.locator(".VPSidebar .VPSidebarItem.level-0").first().locator("a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(items.at(-1)).toBe(`${server.url}${at(`/${chapter.id}.html`)}`);
    expect(await s12.locator('.lp-jump a[rel="next"]').getAttribute("href")).toBe(at(`/${chapter.id}.html`));
    expect(await s12.locator(".VPDocFooter .pager-link.next").getAttribute("href")).toBe(at(`/${chapter.id}.html`));
    await s12.locator(".VPDocFooter .pager-link.next").click();
    await s12.waitForURL(`**${at(`/${chapter.id}.html`)}`);
    await s12.locator(".vp-doc h1", { hasText: chapter.topic }).waitFor();
    const mapLinks = await s12.locator('.vp-doc h2:has-text("对照表") ~ table').first().locator("tbody tr td:first-child a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(mapLinks).toEqual(lessons.map((l) => `${server.url}${at(`/${l.id}.html`)}`));
    expect(await s12.locator(".vp-doc h3").allTextContents()).toEqual(expect.arrayContaining(["练习 1：工具", "练习 2：闸", "练习 3：包"].map((t) => expect.stringContaining(t))));
    expect(await s12.locator('.VPDocFooter .pager-link.prev').getAttribute("href")).toBe(at("/s12.html"));
    expect(problemsOf(s12)).toEqual([]);
    await s12.screenshot({ path: join(SHOTS, "graduation-1440.png") });
    await s12.context().close();
  });
});
