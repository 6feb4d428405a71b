// 课程网站的端到端测试：在本机起静态服务器（127.0.0.1，不碰外网），用无头 Chromium 像读者一样用：
// 首页 → 链路图和课程列表 → 进 s04 → 折叠、展开旧代码 → 切到差异和 API 标签 → 回放一步步走到工具结果；关掉 JavaScript 再读一遍；
// 然后逐条守住第二轮（issue 18）的要求：每一页没有脚本错误、没有失败的请求（favicon 也算）、手机宽度不横向溢出；
// 桌面上代码、差异、回放用满宽度，长行折行、一行也不用横向滚动；手机上回放的控制条一直在眼前、窗口紧凑、标签一排放下；
// 每课的练习卡片：两条命令带复制按钮，空白和 makePractice 挖的一样、各链到页面上讲它的小节；练习视图把讲本节函数体的代码块折进「提示 / 答案」；回放知道哪些步骤是本节的、能自动播放、
// 做不了事的按钮是灰的、写着快捷键；标签和回放步骤在网址里，打开和后退都恢复；参考页和锚点都在、课文里的编号和 Pi 路径都链对了、
// 站内链接全通；差异先删后加、能并排看、能比较任意两课；s12 这一页不超过 600 KB（不压缩、不预取），代码和差异只传一遍，服务器会压缩。
// 站点挂在构建时的 base 下（LEARN_PI_SITE_BASE=/learn-pi-agent/ npm run site 构建的就在 /learn-pi-agent/ 下，和 GitHub Pages 的项目页一样），
// 服务器只在 base 下给文件；每一页都查：没有一个请求出了 base、没有一个回应是 404。测试里写的路径是站内路径（/s04.html），at() 加上 base。
// 截图存在 site/.screenshots/（git 不收）。Chromium 用 Debian 的 chromium 包（CHROMIUM_PATH 可改路径），playwright-core 不自带、也不下载浏览器。
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type Page, type Response, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSiteBase } from "../lib/base.ts";
import { builtBase } from "../lib/built-base.ts";
import { CODE_RE, type CodeIndex } from "../lib/codes.ts";
import { loadChapter } from "../lib/chapter.ts";
import { SITE, loadCourse } from "../lib/course.ts";
import { answerBlocks, firstFailureBlock } from "../lib/practice.ts";
import { PI_REPO, PI_TAG, isPiPath, presentRefPages } from "../lib/refs.ts";
import type { Replay } from "../lib/replay-types.ts";
import { checkLines } from "../../scripts/practice/check-names.ts";
import { makePractice } from "../../scripts/practice/stub.ts";
import { type StaticServer, serveStatic } from "../lib/static-server.ts";

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
/** s12 一页（HTML、脚本、样式、图标，不压缩、不算预取）的上限：issue 18 的目标。 */
const PAGE_BUDGET = 600_000;
const PHONE = 390;
const DESKTOP = 1440;

const lessons = loadCourse();
const s04 = lessons.find((l) => l.id === "s04");
const replayOf = (id: string): Replay => JSON.parse(readFileSync(join(SITE, "replay", `${id}.json`), "utf8")) as Replay;
const replay = replayOf("s04");
const refs = presentRefPages();
const hasGlossary = refs.some((r) => r.id === "glossary");
/** site/dist 构建时的 base（设了 LEARN_PI_SITE_BASE 就必须是它）。 */
const BASE = builtBase();
/** 站内路径 → 服务器上的网址路径：/s04.html → /learn-pi-agent/s04.html。 */
const at = (path: string): string => withSiteBase(path, BASE);
const chapter = loadChapter();
const PAGES = ["/", ...lessons.map((l) => `/${l.id}.html`), ...(chapter === undefined ? [] : [`/${chapter.id}.html`]), ...refs.map((r) => `/${r.id}.html`), "/compare.html"];

let server: StaticServer;
let browser: Browser;
/** 每个页面上出现的脚本错误、控制台错误和失败的请求。 */
const problems = new WeakMap<Page, string[]>();

/** 网址（或 href）→ 站内路径（/s04.html），可以带上查询串和锚点；不在这个服务器的 base 下就标出来（测试会把它当成问题）。 */
function sitePath(href: string, withHash = false): string {
  const url = new URL(href, server.url);
  const path = url.origin === server.url && url.pathname.startsWith(BASE) ? `/${url.pathname.slice(BASE.length)}` : `outside ${BASE}: ${url.href}`;
  return withHash ? `${path}${url.search}${url.hash}` : path;
}

async function open(path: string, options: { width?: number; javaScript?: boolean; wait?: "load" | "networkidle" } = {}): Promise<Page> {
  const phone = options.width !== undefined && options.width < 500;
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: phone ? 844 : 900 },
    javaScriptEnabled: options.javaScript ?? true,
    deviceScaleFactor: phone ? 2 : 1,
  });
  const page = await context.newPage();
  const seen: string[] = [];
  problems.set(page, seen);
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") seen.push(`console error: ${message.text()}`);
  });
  page.on("requestfailed", (request) => seen.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  // 站内的请求一个也不出 base（出了 base，在真的项目页上就是别人的网址）
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === server.url && !url.pathname.startsWith(BASE)) seen.push(`outside ${BASE}: ${request.url()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) seen.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${server.url}${at(path)}`, { waitUntil: options.wait ?? "load" });
  return page;
}

const problemsOf = (page: Page): string[] => problems.get(page) ?? [];

async function live(page: Page): Promise<void> {
  await page.locator('.lp-replay[data-live="yes"]').waitFor();
}

const overflowX = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

beforeAll(async () => {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("site/dist is missing: run npm run site first");
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  mkdirSync(SHOTS, { recursive: true });
  server = await serveStatic(DIST, 0, "127.0.0.1", BASE);
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

  it("从首页进 s04（站内跳转，代码片段另取）：折叠、展开旧代码，切差异和 API 标签，回放走到工具结果", async () => {
    expect(s04).toBeDefined();
    const page = await open("/");
    const fragments: string[] = [];
    page.on("request", (r) => {
      const path = sitePath(r.url());
      if (path.startsWith("/lp/") && path.endsWith(".html")) fragments.push(path);
    });
    await page.locator(`a.lp-lesson[href="${at("/s04.html")}"]`).click();
    await page.waitForURL(/\/s04\.html$/);
    await expect.poll(() => page.locator("h1").first().innerText()).toContain(s04?.topic ?? "?");
    // 组件挂载好（回放变成播放器）、代码片段取到再操作
    await live(page);
    await page.locator('.lp-raw[data-raw="s04.tabs"][data-ready="yes"]').waitFor();
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

    // 差异标签：和 s03 比，有加的行，代码面板收起
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect(await page.locator(".lp-panel-diff").isVisible()).toBe(true);
    expect(await page.locator(".lp-panel-code").isVisible()).toBe(false);
    expect(await page.locator(".lp-panel-diff .lp-code-inner > div.a").count()).toBeGreaterThan(50);
    // API 标签：新声明 ToolCall，已有的 ToolRegistry 多了 run
    await page.locator('label[for="lp-tab-s04-api"]').click();
    const toolCall = page.locator(".lp-card", { has: page.locator(".lp-card-name", { hasText: /^ToolCall$/ }) });
    expect(await toolCall.locator(".lp-card-badge").innerText()).toBe("新声明");
    const registry = page.locator(".lp-card", { has: page.locator(".lp-card-name", { hasText: /^ToolRegistry$/ }) });
    expect(await registry.innerText()).toContain("#run");
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

    // 跳转条上「上一课」「下一课」都带主题
    const next = lessons.find((l) => l.id === s04?.next);
    const prev = lessons.find((l) => l.id === s04?.prev);
    expect(await page.locator('.lp-jump a[rel="next"] small').innerText()).toBe(`${next?.id} ${next?.topic}`);
    expect(await page.locator('.lp-jump a[rel="prev"] small').innerText()).toBe(`${prev?.id} ${prev?.topic}`);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

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

  it("每一页：没有脚本错误、控制台错误和失败的请求（favicon 也算），手机宽度不横向溢出", async () => {
    for (const width of [PHONE, DESKTOP]) {
      for (const path of PAGES) {
        const page = await open(path, { width });
        if (path.startsWith("/s")) await live(page);
        expect(await page.locator('head link[rel="icon"]').getAttribute("href"), path).toBe(at("/favicon.svg"));
        if (width === PHONE) expect(await overflowX(page), `${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
        expect(problemsOf(page), `${path} at ${width}px`).toEqual([]);
        await page.context().close();
      }
    }
    const icon = await fetch(`${server.url}${at("/favicon.svg")}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
  });

  it("桌面 1440px：代码、差异、回放用满宽度，旁边的目录让开", async () => {
    const page = await open("/s04.html", { width: DESKTOP });
    await live(page);
    const geometry = await page.evaluate(() => {
      const rect = (sel: string): DOMRect | undefined => document.querySelector(sel)?.getBoundingClientRect();
      return {
        prose: rect(".vp-doc > div > p, .vp-doc p")?.width ?? 0,
        container: rect(".content-container"),
        aside: rect(".VPDoc .aside"),
      };
    });
    const containerLeft = geometry.container?.left ?? 0;
    const asideRight = geometry.aside?.right ?? 0;
    expect(asideRight).toBeGreaterThan(containerLeft);
    const fullWidth = asideRight - containerLeft;
    // 代码
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    const code = page.locator(".lp-panel-code .lp-code");
    const codeBox = await code.boundingBox();
    expect(codeBox?.width ?? 0).toBeGreaterThanOrEqual(fullWidth - 2);
    expect(codeBox?.width ?? 0).toBeGreaterThan(1.4 * (geometry.container?.width ?? 0));
    await expect.poll(() => page.locator(".VPDoc").getAttribute("class")).toContain("lp-aside-off");
    await expect.poll(() => page.locator(".VPDoc .aside").evaluate((el) => getComputedStyle(el).visibility)).toBe("hidden");
    // 展开全部旧代码后，要横向滚动才看得全的行：第一轮时 400 行里有 44 行；课长大以后最长的那几行（一百四五十列）
    // 在这个宽度下怎么也放不下，所以宽屏上长行折行：一行也不用横向滚动，折下来的续行缩进到这一行代码的开头之后，一个字也不藏
    await page.locator('[data-action="unfold-all"]').click();
    // 展开的旧代码换上了高亮（页面里传的是没上色的原文，展开时取 /lp/lines/s04.json）
    await expect.poll(() => page.locator(".lp-panel-code details.lp-fold[data-plain]").count()).toBe(0);
    expect(await page.locator(".lp-panel-code details.lp-fold k-1").count()).toBeGreaterThan(50);
    const lines = await code.evaluate((box) => {
      // 看得见的地方到框的右边为止（折行处那个空格照 pre-wrap 的规矩挂在行尾的留白里，不算藏起来的字）
      const limit = box.getBoundingClientRect().right - 1;
      const lineHeight = parseFloat(getComputedStyle(box).lineHeight);
      const clipped: string[] = [];
      const wrapped: { id: string; code: number; continuation: number }[] = [];
      for (const line of box.querySelectorAll<HTMLElement>(".lp-code-inner div[id]")) {
        const range = document.createRange();
        range.selectNodeContents(line);
        if (range.getBoundingClientRect().right > limit) clipped.push(line.id);
        if (line.getBoundingClientRect().height < 1.5 * lineHeight) continue;
        // 这一行代码的第一个字（缩进之后）在哪，折下来的续行从哪开始
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        let first: DOMRect | undefined;
        for (let node = walker.nextNode(); node !== null && first === undefined; node = walker.nextNode()) {
          const at = (node.textContent ?? "").search(/\S/);
          if (at < 0) continue;
          const one = document.createRange();
          one.setStart(node, at);
          one.setEnd(node, at + 1);
          first = one.getBoundingClientRect();
        }
        const rects = [...range.getClientRects()];
        const top = rects[0]?.top ?? 0;
        const continuation = Math.min(...rects.filter((r) => r.top > top + 2).map((r) => r.left));
        wrapped.push({ id: line.id, code: first?.left ?? 0, continuation });
      }
      return { clipped, wrapped, scrolls: box.scrollWidth > box.clientWidth };
    });
    expect(lines.clipped).toEqual([]);
    expect(lines.scrolls).toBe(false);
    expect(lines.wrapped.length).toBeGreaterThan(0);
    for (const w of lines.wrapped) expect(w.continuation, `${w.id}: the wrapped part starts left of the line's code`).toBeGreaterThan(w.code);
    await page.locator('[data-action="fold-all"]').click();
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-1440-code.png") });
    // 差异（合并、并排）：合并视图的长行也折行
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect((await page.locator('.lp-panel-diff [data-view="unified"]').boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(fullWidth - 2);
    expect(await page.locator('.lp-panel-diff [data-view="unified"]').evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(false);
    await page.locator('.lp-panel-diff [data-action="split"]').click();
    expect((await page.locator('.lp-panel-diff [data-view="split"]').boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(fullWidth - 2);
    await page.locator(".lp-tabs").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: join(SHOTS, "s04-1440-diff-split.png") });
    await page.locator('.lp-panel-diff [data-action="unified"]').click();
    await page.locator('label[for="lp-tab-s04-code"]').click();
    // 回放
    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    expect((await page.locator(".lp-replay-live").boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(fullWidth - 2);
    // 回到课文：目录回来
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.locator(".VPDoc").getAttribute("class")).not.toContain("lp-aside-off");
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("手机 390px：回放每走一步，控制条和当前这一步都在屏幕上；窗口紧凑；标签一排放下", async () => {
    const page = await open("/s04.html", { width: PHONE });
    await live(page);
    // 代码的三个标签、回放的按钮、回放的窗口标签，各自一排
    const rows = async (selector: string): Promise<number> =>
      page.locator(selector).evaluateAll((els) => new Set(els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => Math.round(e.getBoundingClientRect().top))).size);
    expect(await rows(".lp-tab-label")).toBe(1);
    expect(await rows(".lp-replay-controls .lp-btn")).toBe(1);
    expect(await rows(".lp-pane-tabs button")).toBe(1);
    const code = page.locator(".lp-panel-code .lp-code");
    expect(await code.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-390-code.png") });

    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    const viewport = page.viewportSize() ?? { width: PHONE, height: 844 };
    let tallest = 0;
    for (let i = 0; i < replay.steps.length - 1; i++) {
      await page.locator('[data-action="next"]').click();
      const g = await page.evaluate(() => ({
        bar: document.querySelector(".lp-replay-bar")?.getBoundingClientRect().toJSON() as DOMRect,
        card: document.querySelector(".lp-replay-step")?.getBoundingClientRect().toJSON() as DOMRect,
        panes: document.querySelector(".lp-replay-panes")?.getBoundingClientRect().toJSON() as DOMRect,
        height: document.querySelector(".lp-replay-live")?.getBoundingClientRect().height ?? 0,
      }));
      expect(g.bar.top, `step ${i + 2}: controls above the screen`).toBeGreaterThanOrEqual(0);
      expect(g.bar.bottom, `step ${i + 2}: controls below the screen`).toBeLessThanOrEqual(viewport.height);
      expect(g.card.top, `step ${i + 2}: step hidden under the controls`).toBeGreaterThanOrEqual(g.bar.bottom - 1);
      expect(g.card.top, `step ${i + 2}: step below the fold`).toBeLessThan(viewport.height - 120);
      expect(g.panes.top, `step ${i + 2}: history/terminal below the fold`).toBeLessThan(viewport.height - 60);
      tallest = Math.max(tallest, g.height);
      if (i === 3) await page.screenshot({ path: join(SHOTS, "s04-390-replay.png") });
    }
    // 第一轮时回放在手机上有 830–1130px 高；现在控制条、当前这一步、一个小窗口，一屏放得下
    expect(tallest).toBeLessThanOrEqual(viewport.height - 48);
    // 小窗口用标签切：终端
    await page.locator('[data-pane-tab="terminal"]').click();
    expect(await page.locator('[data-role="terminal"]').isVisible()).toBe(true);
    expect(await page.locator('[data-role="history"]').isVisible()).toBe(false);
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("回放：标出本节的步骤，「下一个本节步骤」，自动播放可调速，做不了事的按钮是灰的，写着快捷键", async () => {
    const data = replayOf("s12");
    const own = data.steps.map((s, i) => (s.lesson === "s12" ? i : -1)).filter((i) => i >= 0);
    expect(own.length).toBeGreaterThan(0);
    const page = await open("/s12.html", { width: DESKTOP });
    await live(page);
    const pos = async (): Promise<number> => Number(await page.locator('[data-role="pos"]').innerText());
    const disabled = (action: string): Promise<boolean> => page.locator(`[data-action="${action}"]`).isDisabled();
    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    expect(await page.locator(".lp-replay-map button.is-own").count()).toBe(own.length);
    expect(await page.locator(".lp-replay-timeline li.is-own").count()).toBe(own.length);
    // 开头：往回走的按钮是灰的
    expect(await disabled("first")).toBe(true);
    expect(await disabled("prev")).toBe(true);
    // 下一个本节步骤
    await page.locator('[data-action="next-own"]').click();
    expect(await pos()).toBe(own[0] + 1);
    expect(await page.locator('.lp-replay-step[data-role="current"] .lp-new').innerText()).toBe("本节");
    expect(await page.locator('.lp-replay-step[data-role="current"] .lp-chip').innerText()).toBe("s12");
    await page.screenshot({ path: join(SHOTS, "s12-1440-replay.png") });
    // 快捷键：写在回放下面，按 n 也能跳到下一个本节步骤，按 → 走一步
    const keys = page.locator(".lp-replay-keys");
    expect(await keys.isVisible()).toBe(true);
    expect(await keys.locator("kbd").count()).toBeGreaterThanOrEqual(6);
    await page.locator(".lp-replay-live").focus();
    await page.keyboard.press("Home");
    expect(await pos()).toBe(1);
    await page.keyboard.press("n");
    expect(await pos()).toBe(own[0] + 1);
    await page.keyboard.press("ArrowRight");
    expect(await pos()).toBe(own[0] + 2);
    // 自动播放：4× 速度走起来，暂停就停
    await page.locator('[data-role="speed"]').selectOption({ label: "4×" });
    const before = await pos();
    await page.locator('[data-action="play"]').click();
    // 等到走了三步为止：一步几百毫秒，一分钟只防卡死，机器再忙也不误报
    await expect.poll(pos, { timeout: 60_000 }).toBeGreaterThanOrEqual(before + 3);
    await page.locator('[data-action="play"]').click();
    const paused = await pos();
    await page.waitForTimeout(900);
    expect(await pos()).toBe(paused);
    // 结尾：往前走的按钮都是灰的（没有下一步、没有下一个工具结果、没有下一个本节步骤、没有下一轮）
    await page.locator(".lp-replay-live").focus();
    await page.keyboard.press("End");
    expect(await pos()).toBe(data.steps.length);
    for (const action of ["next", "next-own", "next-tool", "next-turn"]) expect(await disabled(action), action).toBe(true);
    expect(await disabled("prev")).toBe(false);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("练习卡片：每课都有，两条命令带复制按钮，空白和 makePractice 挖的一样、各链到页面上讲它的小节，按顺序查的几项（含每个阶段）和第一次检查看到的", async () => {
    const verb = { body: "写出", rewrite: "改写", part: "补上" } as const;
    for (const lesson of lessons) {
      const page = await open(`/${lesson.id}.html`, { javaScript: false });
      const card = page.locator(".lp-practice");
      expect(await card.count(), lesson.id).toBe(1);
      // 卡片在「试一下」这一节里，顶替了 README 的「自己写一遍」小节（标题留着，跳转条上的「练习」指向它）
      expect(await page.locator("h3#自己写一遍 + .lp-practice").count(), lesson.id).toBe(1);
      expect(await page.locator('.lp-jump a[href="#自己写一遍"]').count(), lesson.id).toBe(1);
      const commands = await card.locator('div.language-bash pre').allInnerTexts();
      expect(commands.map((c) => c.trim()), lesson.id).toEqual([`npm run practice -- ${lesson.id}`, `npm run check -- ${lesson.id}`]);
      expect(await card.locator("div.language-bash button.copy").count(), lesson.id).toBe(2);
      // 空白：和 npm run practice 挖的一样（在测试里现算），每个链接都落在这一页的某个锚点上
      const shown = await card.locator(".lp-stubs li").evaluateAll((items) =>
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
      const expected = makePractice(lesson.id, { verify: false }).stubs.map((st) => `${verb[st.kind]} ${st.name} → ${st.section}`);
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
    // 复制按钮真能复制（开 JavaScript，VitePress 的代码块按钮）
    const context = await browser.newContext({ viewport: { width: DESKTOP, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await context.newPage();
    await page.goto(`${server.url}${at("/s04.html")}#自己写一遍`);
    await live(page);
    const block = page.locator(".lp-practice div.language-bash").nth(1);
    await block.hover();
    await block.locator("button.copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("npm run check -- s04");
    await context.close();
    // 截图：s04、s12 的卡片，手机和桌面
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

  it("练习视图：开关一按，讲本节函数体的代码块折进「提示 / 答案」，点开才看；选择记在 localStorage；关上和普通视图一样", async () => {
    const lesson = s04;
    if (lesson === undefined) throw new Error("no s04");
    const blocks = answerBlocks(lesson.readme, makePractice("s04", { verify: false }).stubs);
    const expected = blocks.map((b) => b.stub.name);
    expect(expected.length).toBeGreaterThan(0);
    const page = await open("/s04.html", { width: DESKTOP });
    await live(page);
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
    // 点「提示」看到三级，每级再点才开；第 3 级是骨架（表达式是 …）
    const run = page.locator(".lp-pfold", { has: page.locator('.lp-pfold-hint[data-stub="ToolRegistry.run"]') }).first();
    await run.locator(".lp-pfold-hint > summary").click();
    // 三级提示是点开「提示」时才取的片段
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
    // 刷新、换一课：还是练习视图，答案折着
    await page.reload();
    await live(page);
    expect(await page.locator(".lp-jump .lp-practice-toggle").getAttribute("aria-pressed")).toBe("true");
    expect(await code(0).isVisible()).toBe(false);
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

  it("网址记着标签、差异的排法和回放步骤：打开时照它恢复，去别的页面再后退回来也恢复", async () => {
    const page = await open("/s04.html", { width: DESKTOP });
    await live(page);
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    await page.locator('.lp-panel-diff [data-action="split"]').click();
    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    for (let i = 0; i < 4; i++) await page.locator('[data-action="next"]').click();
    await expect.poll(() => new URL(page.url()).search).toBe("?tab=diff&view=split&step=5");
    // 去下一课（站内跳转），再后退
    await page.locator('.lp-jump a[rel="next"]').click();
    await page.waitForURL(/\/s05\.html$/);
    await live(page);
    await page.goBack();
    await page.waitForURL(/\/s04\.html\?tab=diff&view=split&step=5$/);
    await page.locator('.lp-raw[data-raw="s04.tabs"][data-ready="yes"]').waitFor();
    await expect.poll(() => page.locator('.lp-tab-in[data-tab="diff"]').isChecked()).toBe(true);
    expect(await page.locator('.lp-panel-diff [data-view="split"]').isVisible()).toBe(true);
    await expect.poll(() => page.locator('[data-role="pos"]').innerText()).toBe("5");
    await page.context().close();

    // 直接打开带状态的网址
    const linked = await open("/s04.html?tab=api&step=12", { width: DESKTOP });
    await live(linked);
    expect(await linked.locator(".lp-panel-api").isVisible()).toBe(true);
    expect(await linked.locator(".lp-panel-code").isVisible()).toBe(false);
    expect(await linked.locator('[data-role="pos"]').innerText()).toBe("12");
    expect(await linked.locator('.lp-replay-step[data-role="current"] [data-role="title"]').innerText()).toBe(replay.steps[11].title);
    // 回到默认（代码、第 1 步）时网址里不留参数
    await linked.locator('label[for="lp-tab-s04-code"]').click();
    await linked.locator(".lp-replay-live").focus();
    await linked.keyboard.press("Home");
    await expect.poll(() => new URL(linked.url()).search).toBe("");
    expect(problemsOf(linked)).toEqual([]);
    await linked.context().close();
  });

  it("参考资料：每份一页、有锚点；课文引用的编号、Pi 的路径都链上了；站内每个链接都通、锚点都在", async () => {
    expect(refs.map((r) => r.id)).toContain("evolution");
    expect(refs.map((r) => r.id)).toContain("differences");
    const codes = JSON.parse(readFileSync(join(SITE, ".gen", "codes.json"), "utf8")) as CodeIndex;
    // 每页的锚点（id）和站内链接
    const ids = new Map<string, Set<string>>();
    const links: { from: string; href: string; text: string }[] = [];
    const unlinked: string[] = [];
    const piCodes: { from: string; text: string; href: string | null }[] = [];
    for (const path of PAGES) {
      const page = await open(path, { width: DESKTOP });
      if (path.startsWith("/s")) await live(page);
      const found = await page.evaluate((re) => {
        const pattern = new RegExp(re, "g");
        const doc = document.querySelector(".vp-doc");
        const out = {
          ids: [...document.querySelectorAll("[id]")].map((el) => el.id),
          links: [...document.querySelectorAll<HTMLAnchorElement>(".VPContent a[href]")].map((a) => ({ href: a.href, text: a.textContent ?? "" })),
          unlinked: [] as string[],
          pi: [...(doc?.querySelectorAll("code") ?? [])]
            .filter((c) => /^(\.\/)?packages\//.test(c.textContent ?? "") && c.closest("pre") === null)
            .map((c) => ({ text: c.textContent ?? "", href: c.closest("a")?.getAttribute("href") ?? null })),
        };
        // 课文里还没链上的编号：文字节点里，不在链接、代码、标题里
        if (doc !== null) {
          const walker = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
            const el = node.parentElement;
            if (el === null || el.closest("a, code, pre, h1, h2, h3, h4, h5, h6, .lp-raw, .lp-replay, .lp-compare") !== null) continue;
            for (const m of (node.textContent ?? "").matchAll(pattern)) out.unlinked.push(m[1]);
          }
        }
        return out;
      }, CODE_RE.source);
      ids.set(path, new Set(found.ids));
      for (const l of found.links) links.push({ from: path, ...l });
      if (/^\/s\d\d\.html$/.test(path)) {
        for (const code of found.unlinked) unlinked.push(`${path}: ${code}`);
        for (const p of found.pi) piCodes.push({ from: path, ...p });
      }
      expect(problemsOf(page), path).toEqual([]);
      await page.context().close();
    }
    // 参考页都在侧栏里，evolution / differences 的编号行有锚点
    expect([...(ids.get("/differences.html") ?? [])].filter((id) => /^f\d+$/.test(id)).length).toBeGreaterThanOrEqual(13);
    if (hasGlossary) {
      // 术语表：每个编号一个锚点（<a id="r1"></a>），课文里引用的每个编号都链上了
      const glossaryIds = ids.get("/glossary.html") ?? new Set();
      for (const code of ["r1", "r4", "u1", "d4", "f1"]) expect(glossaryIds.has(code), `GLOSSARY.md #${code}`).toBe(true);
      expect(unlinked.filter((u) => !u.includes("§")), "codes cited in lessons but not in GLOSSARY.md").toEqual([]);
    }
    // 有解释的编号一个不落地链上了
    expect(unlinked.filter((u) => codes[u.split(": ")[1]] !== undefined)).toEqual([]);
    // 站内链接：页面存在、锚点在那一页上
    const internal = links.filter((l) => l.href.startsWith(server.url));
    expect(internal.length).toBeGreaterThan(200);
    const broken: string[] = [];
    for (const l of internal) {
      const url = new URL(l.href);
      if (!url.pathname.startsWith(BASE)) {
        broken.push(`${l.from} → ${url.pathname} (outside ${BASE})`);
        continue;
      }
      if (!url.pathname.endsWith(".html") && !url.pathname.endsWith("/")) {
        // 不是页面的链接（流程图的 SVG）：文件要在
        const res = await fetch(url, { method: "HEAD" });
        if (res.status !== 200) broken.push(`${l.from} → ${url.pathname} (${res.status})`);
        continue;
      }
      const path = sitePath(l.href) === "/index.html" ? "/" : sitePath(l.href);
      const target = ids.get(path);
      if (target === undefined) {
        broken.push(`${l.from} → ${url.pathname} (no such page)`);
        continue;
      }
      const hash = decodeURIComponent(url.hash.slice(1));
      if (hash !== "" && !target.has(hash)) broken.push(`${l.from} → ${url.pathname}#${hash} (no such anchor) "${l.text}"`);
    }
    expect(broken).toEqual([]);
    // 编号链到它的解释（参考页的锚点）
    const codeLinks = internal.filter((l) => new RegExp(`^(?:${CODE_RE.source})$`).test(l.text) && /\/(glossary|evolution|differences)\.html#/.test(l.href));
    expect(codeLinks.length).toBeGreaterThan(10);
    // 源码溯源里 Pi 的每个路径都链到 Pi 仓库的 v1.6.0
    expect(PI_TAG).toBe("v1.6.0");
    expect(piCodes.length).toBeGreaterThan(30);
    for (const p of piCodes) {
      const path = p.text.replace(/^\.\//, "");
      if (!isPiPath(path)) continue;
      expect(p.href, `${p.from}: ${p.text}`).toBe(`${PI_REPO}/${path.endsWith("/") ? "tree" : "blob"}/${PI_TAG}/${path.replace(/\/$/, "")}`);
    }
    // 课文指向仓库文件的链接改成了站内页面：s04 的 fidelity/DIFFERENCES.md
    expect(links.some((l) => l.from === "/s04.html" && l.href === `${server.url}${at("/differences.html")}`)).toBe(true);
    const page = await open("/differences.html#f3", { width: DESKTOP });
    expect(await page.locator("tr#f3").isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, "differences-f3.png") });
    await page.context().close();
  });

  it("课文里的 Mermaid 流程图画成了图：浅色模式看浅色那份，深色模式看深色那份，不再是一段源码", async () => {
    const withDiagram = lessons.filter((l) => l.readme.includes("```mermaid"));
    for (const lesson of withDiagram) {
      const page = await open(`/${lesson.id}.html`, { width: DESKTOP });
      expect(await page.locator("div.language-mermaid").count(), lesson.id).toBe(0);
      const figure = page.locator(".lp-diagram").first();
      await figure.scrollIntoViewIfNeeded();
      const light = figure.locator("img.lp-diagram-light");
      await expect.poll(() => light.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), { timeout: 60_000 }).toBe(true); // 等图载入，一分钟只防卡死
      expect(await figure.locator("img.lp-diagram-dark").isVisible()).toBe(false);
      expect(problemsOf(page), lesson.id).toEqual([]);
      await page.context().close();
    }
    const dark = await browser.newContext({ viewport: { width: DESKTOP, height: 900 }, colorScheme: "dark" });
    const page = await dark.newPage();
    await page.goto(`${server.url}${at("/s04.html")}`);
    const figure = page.locator(".lp-diagram").first();
    await figure.scrollIntoViewIfNeeded();
    expect(await figure.locator("img.lp-diagram-dark").isVisible()).toBe(true);
    expect(await figure.locator("img.lp-diagram-light").isVisible()).toBe(false);
    await page.screenshot({ path: join(SHOTS, "s04-1440-diagram-dark.png") });
    await dark.close();
  });

  it("差异：同一处改动先列删掉的行再列加上的；并排视图左旧右新；比较任意两课", async () => {
    // 每课的差异标签
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
    // 并排：左边只有旧行（删掉的、没变的），右边只有新行，两边行数相同（一行一行对齐）
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

    // 比较任意两课：s02 → s05，合并和并排，网址记着
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

  it("页面大小：s12 这一页不超过 600 KB（不压缩、不预取），代码和差异只传一遍，site:serve 压缩文字", async () => {
    const page = await open("/s12.html", { width: DESKTOP, wait: "networkidle" });
    await live(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    const responses: Response[] = [];
    // 重新载入一次，数这一次的每个回应（第一次打开时的监听晚于首页的请求）
    page.on("response", (r) => responses.push(r));
    await page.reload({ waitUntil: "networkidle" });
    await live(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    let bytes = 0;
    let transferred = 0;
    const rows: string[] = [];
    for (const r of responses) {
      const body = await r.body();
      const sizes = await r.request().sizes();
      bytes += body.length;
      transferred += sizes.responseBodySize;
      const path = sitePath(r.url());
      rows.push(`${path} ${body.length}`);
      // 文字类的回应都压缩了
      if (/\.(html|js|css|json|svg)$/.test(path) || path === "/") expect(r.headers()["content-encoding"], path).toMatch(/^(br|gzip)$/);
    }
    const paths = responses.map((r) => sitePath(r.url()));
    console.log(`s12 page: ${bytes} bytes uncompressed, ${transferred} bytes transferred, ${responses.length} responses`);
    // 不预取别的课，也不另取 s12 自己的代码片段（它已经在 HTML 里）
    expect(paths.filter((p) => /\/assets\/(?!s12\.)[^/]*\.md\./.test(p)), "prefetched other pages").toEqual([]);
    expect(paths.filter((p) => p.startsWith("/lp/") && p.endsWith(".html")), "fetched a fragment already in the HTML").toEqual([]);
    expect(bytes, rows.join("\n")).toBeLessThan(PAGE_BUDGET);
    // 代码和差异只在 HTML 里：这一课的脚本很小，里面也没有高亮过的代码行
    const chunk = responses.find((r) => /\/assets\/s12\.md\.[\w-]+\.lean\.js$/.test(r.url()));
    expect(chunk).toBeDefined();
    const script = (await chunk?.text()) ?? "";
    expect(script.length).toBeLessThan(60_000);
    expect(script).not.toContain("<div id=L");
    const html = (await responses.find((r) => sitePath(r.url()) === "/s12.html")?.text()) ?? "";
    expect(html.match(/<div id=L1[ >]/g)?.length).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, "s12-1440-top.png") });
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await expect.poll(() => page.locator(".VPDoc .aside").evaluate((el) => getComputedStyle(el).visibility)).toBe("hidden");
    await page.screenshot({ path: join(SHOTS, "s12-1440-code.png") });
    await page.context().close();

    // 手机上的 s12：截图
    const phone = await open("/s12.html", { width: PHONE });
    await live(phone);
    await phone.screenshot({ path: join(SHOTS, "s12-390-top.png") });
    await phone.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await phone.screenshot({ path: join(SHOTS, "s12-390-code.png") });
    await phone.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    await phone.locator('[data-action="next-own"]').click();
    await phone.screenshot({ path: join(SHOTS, "s12-390-replay.png") });
    expect(problemsOf(phone)).toEqual([]);
    await phone.context().close();
  });
});

