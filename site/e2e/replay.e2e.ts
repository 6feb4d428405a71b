// 浏览器测试：回放和网址。回放知道哪些步骤是本节的、能自动播放、做不了事的按钮是灰的、写着快捷键；
// 标签、差异的排法和回放步骤记在网址里，打开和后退都恢复。
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DESKTOP, SHOTS, live, open, problemsOf, replay, replayOf, useReader } from "./browser.ts";

useReader();

describe("课程网站（真浏览器）：回放和网址", () => {
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
    await expect.poll(pos).toBeGreaterThanOrEqual(before + 3);
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
});
