// 浏览器测试：首页。链路图的每一步链到它的课，函数名跳到 s12 代码里的那一行；课程列表带每课的格言；
// 站点只在 base 下（挂在子路径下构建时）。
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BASE, SHOTS, at, lessons, open, problemsOf, server, sitePath, useReader } from "./browser.ts";

useReader();

describe("课程网站（真浏览器）：链路图和课程列表", () => {
  it("首页：链路图每一步链到它的课，课程列表带每课的格言", async () => {
    const page = await open("/");
    const steps = page.locator(".lp-chain-step");
    await expect.poll(() => steps.count()).toBe(7);
    const tool = steps.filter({ hasText: "钩子" }).first();
    expect(await tool.locator(`a.lp-chip[href="${at("/s05.html")}"]`).count()).toBe(1);
    expect(await page.locator(".lp-chain-loop .lp-chain-step").count()).toBe(3);
    const cards = page.locator("a.lp-lesson");
    expect(await cards.count()).toBe(lessons.length);
    for (const lesson of lessons) {
      const card = page.locator(`a.lp-lesson[href="${at(`/${lesson.id}.html`)}"]`);
      expect(await card.locator(".lp-lesson-topic").innerText()).toBe(lesson.topic);
      expect((await card.locator(".lp-lesson-motto").innerText()).replace(/\s+/g, "")).toBe(lesson.motto.replace(/[`\s]/g, ""));
    }
    await page.screenshot({ path: join(SHOTS, "home.png"), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it.runIf(BASE !== "/")(`站点只在 base（${BASE}）下：base 之外是 404，少了结尾斜杠的 base 转到首页`, async () => {
    expect((await fetch(`${server.url}/s04.html`)).status).toBe(404);
    expect((await fetch(`${server.url}/lp/lines/s04.json`)).status).toBe(404);
    expect((await fetch(`${server.url}${at("/s04.html")}`)).status).toBe(200);
    const bare = await fetch(`${server.url}${BASE.slice(0, -1)}`, { redirect: "manual" });
    expect([bare.status, bare.headers.get("location")]).toEqual([301, BASE]);
    const page = await open("/");
    expect(page.url()).toBe(`${server.url}${BASE}`);
    expect(await page.locator(".lp-chain-step").count()).toBe(7);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("链路图上的函数名跳到 s12 代码里的那一行，折叠着的也会展开", async () => {
    const page = await open("/");
    const link = page.locator(".lp-chain a.lp-fn", { hasText: "createTurnSnapshot" }).first();
    const href = (await link.getAttribute("href")) ?? "";
    expect(sitePath(href, true)).toMatch(/^\/s12\.html#L\d+$/);
    await link.click();
    await page.waitForURL(/\/s12\.html#L\d+$/);
    const line = page.locator(`[id="${href.split("#")[1]}"]`);
    await expect.poll(() => line.isVisible()).toBe(true);
    expect(await line.innerText()).toContain("createTurnSnapshot");
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });
});
