// 浏览器测试：练习。每课的练习卡片：两条命令带复制按钮，空白和 makePractice 挖的一样、各链到页面上讲它的小节，
// 查的几项和 npm run check 的报告同一份名字，第一次检查看到的就是 README 里那段；
// 练习视图（D44）把讲本节函数体的代码块折进「提示 / 答案」，选择记在 localStorage。
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { answerBlocks, firstFailureBlock } from "../lib/practice.ts";
import { checkLines } from "../../tooling/practice/check-list.ts";
import { makePractice } from "../../tooling/practice/stub.ts";
import { DESKTOP, PHONE, SHOTS, at, lessons, live, newContext, open, overflowX, problemsOf, s04, server, useReader } from "./browser.ts";

useReader();

const VERB = { body: "写出", rewrite: "改写", part: "补上" } as const;

/** 卡片上列的空白：「动词 名字 → 小节」，链接的锚点，锚点在不在这一页上。 */
async function shownStubs(page: Page): Promise<{ stub: string; hash: string; resolves: boolean }[]> {
  return page.locator(".lp-practice .lp-stubs li").evaluateAll((items) =>
    items.map((li) => {
      const link = li.querySelector<HTMLAnchorElement>("a.lp-stub-section");
      const hash = decodeURIComponent(new URL(link?.href ?? location.href).hash.slice(1));
      return {
        stub: `${li.querySelector(".lp-stub-verb")?.textContent} ${li.querySelector(".lp-stub-name")?.textContent} → ${link?.textContent}`,
        hash,
        resolves: hash !== "" && document.getElementById(hash) !== null && link?.pathname === location.pathname,
      };
    }),
  );
}

describe("课程网站（真浏览器）：练习卡片", () => {
  it("练习卡片：每课都有，两条命令带复制按钮，空白和 makePractice 挖的一样、各链到页面上讲它的小节，按顺序查的几项（含每个阶段）和第一次检查看到的", async () => {
    for (const lesson of lessons) {
      const page = await open(`/${lesson.id}.html`, { javaScript: false });
      const card = page.locator(".lp-practice");
      expect(await card.count(), lesson.id).toBe(1);
      // 卡片在「试一下」这一节里，顶替了 README 的「自己写一遍」小节（标题留着，跳转条上的「练习」指向它）
      expect(await page.locator("h3#自己写一遍 + .lp-practice").count(), lesson.id).toBe(1);
      expect(await page.locator('.lp-jump a[href="#自己写一遍"]').count(), lesson.id).toBe(1);
      const commands = await card.locator("div.language-bash pre").allInnerTexts();
      expect(commands.map((c) => c.trim()), lesson.id).toEqual([`npm run practice -- ${lesson.id}`, `npm run check -- ${lesson.id}`]);
      expect(await card.locator("div.language-bash button.copy").count(), lesson.id).toBe(2);
      // 空白：和 npm run practice 挖的一样（在测试里现算），每个链接都落在这一页的某个锚点上
      const shown = await shownStubs(page);
      const expected = makePractice(lesson.id, { verify: false }).stubs.map((st) => `${VERB[st.kind]} ${st.name} → ${st.section}`);
      expect(expected.length, lesson.id).toBeGreaterThan(0);
      expect(shown.map((x) => x.stub), lesson.id).toEqual(expected);
      expect(shown.filter((x) => !x.resolves).map((x) => `${lesson.id} #${x.hash}`)).toEqual([]);
      // 查的几项：类型、API、每个阶段（小字是它要你做什么）、演示，和 npm run check 的报告同一份名字；
      // 第一次检查看到的，就是 README「自己写一遍」里的那段（npm test 的文档检查保证它和真跑的一样）
      const items = await card.locator(".lp-checks > li").evaluateAll((lis) => lis.map((li) => li.textContent ?? ""));
      expect(items, lesson.id).toEqual(checkLines(lesson.id).map(({ name, stage }) => expect.stringContaining(`${name}${stage?.asks ?? ""}`)));
      const first = firstFailureBlock(lesson.readme);
      expect(first, lesson.id).toBeDefined();
      expect((await card.locator("div.language-text pre").innerText()).trimEnd(), lesson.id).toBe(first?.trimEnd());
      const more = card.locator(".lp-practice-more");
      expect(await more.innerText(), lesson.id).toContain("--watch");
      expect(await more.innerText(), lesson.id).toContain("--solution");
      const nextLink = more.locator(`a[href="${at(`/${lesson.next}.html#自己写一遍`)}"]`);
      expect(await nextLink.count(), lesson.id).toBe(lesson.next === undefined ? 0 : 1);
      await page.context().close();
    }
  });

  it("练习卡片的复制按钮真能复制（开 JavaScript，VitePress 的代码块按钮）", async () => {
    const context = await newContext({ viewport: { width: DESKTOP, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await context.newPage();
    await page.goto(`${server.url}${at("/s04.html")}#自己写一遍`);
    await live(page);
    const block = page.locator(".lp-practice div.language-bash").nth(1);
    await block.hover();
    await block.locator("button.copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("npm run check -- s04");
    await context.close();
  });

  it("练习卡片在手机和桌面上都不横向溢出（s04、s12 的卡片截图）", async () => {
    for (const id of ["s04", "s12"]) {
      for (const width of [PHONE, DESKTOP]) {
        const shot = await open(`/${id}.html`, { width });
        await live(shot);
        // 整页截图里裁出卡片（直接截元素时，贴在顶上的导航条会盖在卡片中间）
        const clip = await shot.locator(".lp-practice").evaluate((el) => {
          const r = el.getBoundingClientRect();
          return { x: 0, y: r.top + window.scrollY - 60, width: document.documentElement.clientWidth, height: r.height + 80 };
        });
        await shot.screenshot({ path: join(SHOTS, `${id}-${width}-practice.png`), fullPage: true, clip });
        expect(await overflowX(shot), `${id} at ${width}px`).toBeLessThanOrEqual(0);
        expect(problemsOf(shot)).toEqual([]);
        await shot.context().close();
      }
    }
  });
});

/** 打开 s04、按下「练习视图」开关；expected 是页面上该折起来的代码块（按先后，讲哪个空白）。 */
async function practiceView(): Promise<{ page: Page; expected: string[]; blocks: ReturnType<typeof answerBlocks> }> {
  if (s04 === undefined) throw new Error("no s04");
  const blocks = answerBlocks(s04.readme, makePractice("s04", { verify: false }).stubs);
  const page = await open("/s04.html", { width: DESKTOP });
  await live(page);
  return { page, expected: blocks.map((b) => b.stub.name), blocks };
}

describe("课程网站（真浏览器）：练习视图", () => {
  it("练习视图：开关一按，讲本节函数体的代码块折进「提示 / 答案」；点「提示」看到三级（第 3 级是骨架），点「答案」才看到代码", async () => {
    const { page, expected, blocks } = await practiceView();
    expect(expected.length).toBeGreaterThan(0);
    const folds = page.locator(".lp-pfold");
    expect(await folds.locator(".lp-pfold-hint").evaluateAll((els) => els.map((el) => el.getAttribute("data-stub")))).toEqual(expected);
    const code = (i: number) => folds.nth(i).locator(".lp-pfold-answer div.language-ts");
    const toggle = page.locator(".lp-jump .lp-practice-toggle");
    // 普通视图：代码块照常看得见，「提示」「答案」都不出现
    for (let i = 0; i < expected.length; i++) {
      expect(await code(i).isVisible(), `fold ${i}`).toBe(true);
      expect(await folds.nth(i).locator(".lp-pfold-hint").isVisible()).toBe(false);
      expect(await folds.nth(i).locator(".lp-pfold-answer > summary").isVisible()).toBe(false);
    }
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    // 练习视图：答案折起来了
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    for (let i = 0; i < expected.length; i++) {
      expect(await code(i).isVisible(), `fold ${i} in practice view`).toBe(false);
      expect(await folds.nth(i).locator(".lp-pfold-answer > summary").innerText()).toBe("答案");
      expect(await folds.nth(i).locator(".lp-pfold-hint > summary").innerText()).toBe("提示");
    }
    // 点「提示」看到三级，每级再点才开；第 3 级是骨架（表达式是 …）；三级提示是点开「提示」时才取的片段
    const run = page.locator(".lp-pfold", { has: page.locator('.lp-pfold-hint[data-stub="ToolRegistry.run"]') }).first();
    await run.locator(".lp-pfold-hint > summary").click();
    const levels = run.locator(".lp-pfold-hint > details");
    await expect.poll(() => levels.count()).toBe(3);
    expect(await levels.nth(2).locator("pre").isVisible()).toBe(false);
    await levels.nth(2).locator("summary").click();
    const skeleton = await levels.nth(2).locator("pre").innerText();
    expect(skeleton).toContain("if (…) return …;");
    expect(skeleton).toContain("} catch (error) {");
    expect(await levels.nth(1).locator("pre").textContent()).toContain("run(call: ToolCall): string {");
    expect(skeleton).not.toContain("safeParse");
    // 第 1 级链到讲它的小节，锚点在这一页上
    const hash = await levels.nth(0).locator("a").evaluate((a) => decodeURIComponent(new URL((a as HTMLAnchorElement).href).hash.slice(1)));
    expect(await page.locator(`[id="${hash}"]`).count()).toBe(1);
    // 点「答案」才看到代码
    expect(await run.locator(".lp-pfold-answer div.language-ts").isVisible()).toBe(false);
    await run.locator(".lp-pfold-answer > summary").click();
    expect(await run.locator(".lp-pfold-answer div.language-ts").isVisible()).toBe(true);
    const answer = blocks.find((b) => b.stub.name === "ToolRegistry.run")?.block.value ?? "";
    expect((await run.locator(".lp-pfold-answer pre").innerText()).trimEnd()).toBe(answer.trimEnd());
    await page.screenshot({ path: join(SHOTS, "s04-practice-view.png"), fullPage: false });
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("练习视图的选择记在 localStorage：刷新、换一课都还是练习视图，答案折着；关上和普通视图一样", async () => {
    const { page } = await practiceView();
    await page.locator(".lp-jump .lp-practice-toggle").click();
    expect(await page.locator(".lp-jump .lp-practice-toggle").getAttribute("aria-pressed")).toBe("true");
    await page.reload();
    await live(page);
    expect(await page.locator(".lp-jump .lp-practice-toggle").getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator(".lp-pfold .lp-pfold-answer div.language-ts").first().isVisible()).toBe(false);
    await page.locator('.lp-jump a[rel="next"]').click();
    await page.waitForURL(/\/s05\.html$/);
    await live(page);
    expect(await page.locator(".lp-jump .lp-practice-toggle").getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator(".lp-pfold .lp-pfold-answer div.language-ts").first().isVisible()).toBe(false);
    // 关上：和普通视图一样
    await page.locator(".lp-jump .lp-practice-toggle").click();
    const s05folds = page.locator(".lp-pfold");
    for (let i = 0; i < (await s05folds.count()); i++) {
      expect(await s05folds.nth(i).locator(".lp-pfold-answer div.language-ts").isVisible()).toBe(true);
      expect(await s05folds.nth(i).locator(".lp-pfold-hint").isVisible()).toBe(false);
    }
    expect(await page.evaluate(() => localStorage.getItem("lp-practice-view"))).toBe("off");
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });
});
