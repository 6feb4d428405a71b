// 课程网站的端到端测试：在本机起静态服务器（127.0.0.1，不碰外网），用无头 Chromium 像读者一样点：
// 打开首页 → 看链路图和课程列表 → 进 s04 → 折叠、展开旧代码 → 切到差异和 API 标签 → 回放一步步走到工具结果；
// 再关掉 JavaScript 读一遍，最后用 390px 宽的手机屏幕看 s04。截图存在 site/.screenshots/（git 不收）。
// Chromium 用 Debian 的 chromium 包（CHROMIUM_PATH 可改路径），playwright-core 不自带、也不下载浏览器。
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE, loadCourse } from "../lib/course.ts";
import type { Replay } from "../lib/replay-types.ts";
import { type StaticServer, serveStatic } from "../server.ts";

const DIST = join(SITE, "dist");
const SHOTS = join(SITE, ".screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// 无头、root 下要 --no-sandbox；这台机器没有外网，关掉 Chromium 自己的后台联网。Playwright 每次启动都给一个全新的临时 --user-data-dir。
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const lessons = loadCourse();
const s04 = lessons.find((l) => l.id === "s04");
const replay = JSON.parse(readFileSync(join(SITE, "replay", "s04.json"), "utf8")) as Replay;

let server: StaticServer;
let browser: Browser;
/** 每个页面上出现的脚本错误和失败的请求。 */
const problems = new WeakMap<Page, string[]>();

async function open(path: string, options: { width?: number; javaScript?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.width !== undefined && options.width < 500 ? 844 : 900 },
    javaScriptEnabled: options.javaScript ?? true,
    deviceScaleFactor: options.width !== undefined && options.width < 500 ? 2 : 1,
  });
  const page = await context.newPage();
  const seen: string[] = [];
  problems.set(page, seen);
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400 && !response.url().endsWith("/favicon.ico")) seen.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  return page;
}

const problemsOf = (page: Page): string[] => problems.get(page) ?? [];

beforeAll(async () => {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("site/dist is missing: run npm run site first");
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  mkdirSync(SHOTS, { recursive: true });
  server = await serveStatic(DIST);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("课程网站（真浏览器）", () => {
  it("首页：链路图每一步链到它的课，课程列表带每课的格言", async () => {
    const page = await open("/");
    const steps = page.locator(".lp-chain-step");
    await expect.poll(() => steps.count()).toBe(7);
    const tool = steps.filter({ hasText: "钩子" }).first();
    expect(await tool.locator('a.lp-chip[href="/s05.html"]').count()).toBe(1);
    expect(await page.locator(".lp-chain-loop .lp-chain-step").count()).toBe(3);
    const cards = page.locator("a.lp-lesson");
    expect(await cards.count()).toBe(lessons.length);
    for (const lesson of lessons) {
      const card = page.locator(`a.lp-lesson[href="/${lesson.id}.html"]`);
      expect(await card.locator(".lp-lesson-topic").innerText()).toBe(lesson.topic);
      expect((await card.locator(".lp-lesson-motto").innerText()).replace(/\s+/g, "")).toBe(lesson.motto.replace(/[`\s]/g, ""));
    }
    await page.screenshot({ path: join(SHOTS, "home.png"), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("链路图上的函数名跳到 s12 代码里的那一行，折叠着的也会展开", async () => {
    const page = await open("/");
    const link = page.locator(".lp-chain a.lp-fn", { hasText: "createTurnSnapshot" }).first();
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/s12\.html#L\d+$/);
    await link.click();
    await page.waitForURL(/\/s12\.html#L\d+$/);
    const line = page.locator(`[id="${href.split("#")[1]}"]`);
    await expect.poll(() => line.isVisible()).toBe(true);
    expect(await line.innerText()).toContain("createTurnSnapshot");
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("从首页进 s04：折叠、展开旧代码，切差异和 API 标签，回放走到工具结果", async () => {
    expect(s04).toBeDefined();
    const page = await open("/");
    await page.locator('a.lp-lesson[href="/s04.html"]').click();
    await page.waitForURL(/\/s04\.html$/);
    await expect.poll(() => page.locator("h1").first().innerText()).toContain(s04?.topic ?? "?");
    // 组件挂载好（回放变成播放器）再操作
    await page.locator('.lp-replay[data-live="yes"]').waitFor();

    // 本节新加的行高亮、可见；旧代码默认折叠
    const fresh = page.locator(".lp-panel-code .l.n").first();
    expect(await fresh.isVisible()).toBe(true);
    const fold = page.locator(".lp-panel-code details.lp-fold").first();
    expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const hiddenLine = fold.locator(".l").first();
    expect(await hiddenLine.isVisible()).toBe(false);
    await fold.locator("summary").click();
    expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await hiddenLine.isVisible()).toBe(true);
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
    await page.locator("#code").scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-desktop.png") });

    // 差异标签：和 s03 比，有加的行，代码面板收起
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect(await page.locator(".lp-panel-diff").isVisible()).toBe(true);
    expect(await page.locator(".lp-panel-code").isVisible()).toBe(false);
    expect(await page.locator(".lp-panel-diff .l.a").count()).toBeGreaterThan(50);
    // API 标签：新声明 ToolCall，已有的 ToolRegistry 多了 run
    await page.locator('label[for="lp-tab-s04-api"]').click();
    const toolCall = page.locator(".lp-card", { has: page.locator(".lp-card-name", { hasText: /^ToolCall$/ }) });
    expect(await toolCall.locator(".lp-card-badge").innerText()).toBe("新声明");
    const registry = page.locator(".lp-card", { has: page.locator(".lp-card-name", { hasText: /^ToolRegistry$/ }) });
    expect(await registry.innerText()).toContain("#run");
    await page.locator(".lp-tabs").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: join(SHOTS, "s04-api.png") });
    await page.locator('label[for="lp-tab-s04-code"]').click();

    // 回放：一步一步点「下一步」，直到出现第一个工具结果
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
    // 再走一步：结果存进历史，终端打出 ← 那一行
    await page.locator('[data-action="next"]').click();
    await expect.poll(() => page.locator('[data-role="history"] li').last().innerText()).toContain("toolResult(call_1): error: no such file: src/app.ts");
    expect(await page.locator('[data-role="terminal"]').innerText()).toContain('  ← "error: no such file: src/app.ts"');
    await page.locator('[data-action="prev"]').click();
    await page.locator(".lp-replay").scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-replay.png") });
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("不开 JavaScript 也能读：课文、折叠、标签、全部回放步骤都在", async () => {
    const page = await open("/s04.html", { javaScript: false });
    expect(await page.locator("h1").first().innerText()).toContain(s04?.topic ?? "?");
    expect(await page.locator("#问题").count()).toBe(1);
    const fold = page.locator(".lp-panel-code details.lp-fold").first();
    const hiddenLine = fold.locator(".l").first();
    expect(await hiddenLine.isVisible()).toBe(false);
    await fold.locator("summary").click();
    expect(await hiddenLine.isVisible()).toBe(true);
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect(await page.locator(".lp-panel-diff").isVisible()).toBe(true);
    expect(await page.locator('.lp-replay[data-live="no"] .lp-replay-static > li').count()).toBe(replay.steps.length);
    expect(await page.locator('[data-action="unfold-all"]').count()).toBe(0);
    const home = await page.goto(`${server.url}/`);
    expect(home?.status()).toBe(200);
    expect(await page.locator(".lp-chain-step").count()).toBe(7);
    await page.context().close();
  });

  it("手机宽度（390px）：页面不横向溢出，代码在自己的框里横向滚动", async () => {
    const page = await open("/s04.html", { width: 390 });
    await page.locator('.lp-replay[data-live="yes"]').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    const code = page.locator(".lp-panel-code .lp-code");
    expect(await code.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.screenshot({ path: join(SHOTS, "s04-phone.png") });
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-phone-code.png") });
    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-phone-replay.png") });
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });
});
