// 真实模型模式（live/）的测试：终端前的人看到什么。空闲超时和总时长上限、回答边到边打、
// 真的当命令跑（node、npm 子进程）、文档里的命令和表和代码对得上。
// 超时多半拨一只假表（HandClock）来测，不用真等，机器再忙结果也一样；真的时间另有只靠下限、留足余量的测试。
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { DEFAULTS, ENV, type LiveConfig, readLiveConfig } from "../../live/config.ts";
import { EXIT, type LiveIO, LIVE_USAGE, configHelp, createLiveAgent } from "../../live/main.ts";
import { OpenAICompatibleProvider } from "../../live/openai.ts";
import { type Agent, type AssistantMessage, PrintMode, runOneTurn } from "../../s12_packages/code.ts";
import { ROOT } from "../../tooling/course.ts";
import { DONE, type Pause, type ServerReply, event, finishChunk, textAnswer, textChunk } from "./replay-server.ts";
import { HandClock, type LiveRun, liveIO, runAgainst, sameUnderSplits, silentAfterFirstText, useWorkspace, utf8, withServer, workspace } from "./support.ts";

useWorkspace();

describe("空闲超时：MINI_PI_TIMEOUT_MS 量的是离上一个字节多久（保活注释也算）；总时长上限另有 MINI_PI_TOTAL_TIMEOUT_MS", () => {
  const IDLE = 400;
  const GAP = 80;
  const KEEP_ALIVE = ": keep-alive\n\n";
  /**
   * 稳稳地吐：先是一串保活注释（服务器在读长提示），再一段段文字，每块之间都停一下（gap 给出这一下怎么停）。
   * 「地」之后那一下可以换成 silence。
   */
  const steady = (gap: () => Pause, options: { keepAlives?: number; silence?: Pause } = {}): ServerReply["chunks"] => [
    ...Array.from({ length: options.keepAlives ?? 10 }, (): ServerReply["chunks"] => [KEEP_ALIVE, gap()]).flat(),
    event(textChunk("慢慢")),
    gap(),
    event(textChunk("地")),
    options.silence ?? gap(),
    event(textChunk("说🙂。")),
    gap(),
    event(finishChunk("stop")),
    DONE,
  ];

  it("稳稳地吐、总时长是空闲超时的好几倍：不掐断，完整答完", async () => {
    // 假表：每块之间拨过 GAP，一共拨过的时间是 IDLE 的好几倍
    const clock = new HandClock();
    const run = await runAgainst(() => ({ chunks: steady(() => clock.gap(GAP)) }), { [ENV.timeoutMs]: String(IDLE) }, { timers: clock });
    expect(run.stderr.at(-1)).not.toMatch(/^error/);
    expect(run.code).toBe(EXIT.answered);
    expect(run.stdout).toBe("慢慢地说🙂。\n");
    expect(clock.now).toBeGreaterThan(2 * IDLE); // 以前的总截止时间在这里就会把回答拦腰切断

    // 真的表（不换 timers，用的是 live/clock.ts 的 REAL_TIMERS）也是这样上弦的：每 50 毫秒一块，每一块都把空闲表重上一次弦，
    // 旧的那只先停掉，任何时候最多一只在走，一轮结束全停。空闲超时给一分钟，只有真卡死才够得着它；
    // 判对错的是上弦的次数和先后，不是「两块之间隔了多久」，机器再忙结论也一样
    const REAL_IDLE = 60_000;
    const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
    const log: ({ arm: unknown } | { stop: unknown })[] = [];
    const set = vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, ms?: number) => {
      const handle = realSet(callback, ms);
      if (ms === REAL_IDLE) log.push({ arm: handle });
      return handle;
    }) as typeof setTimeout);
    const clear = vi.spyOn(globalThis, "clearTimeout").mockImplementation((handle) => {
      log.push({ stop: handle });
      realClear(handle);
    });
    let real: LiveRun;
    try {
      real = await runAgainst(() => ({ chunks: steady(() => ({ waitMs: 50 })) }), { [ENV.timeoutMs]: String(REAL_IDLE) });
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
    expect(real.stderr.at(-1)).not.toMatch(/^error/);
    expect(real.code).toBe(EXIT.answered);
    expect(real.stdout).toBe("慢慢地说🙂。\n");
    // 照先后走一遍上弦（arm）和停表（stop），数着任何时候有几只空闲表在走
    const running = new Set<unknown>();
    let arms = 0;
    let most = 0;
    for (const step of log) {
      if ("arm" in step) (arms++, running.add(step.arm));
      else running.delete(step.stop);
      most = Math.max(most, running.size);
    }
    expect(arms, "re-armed by the body's bytes, not only when the request starts and the headers arrive").toBeGreaterThan(2);
    expect(most, "one idle timer at a time").toBe(1);
    expect(running.size, "every idle timer stopped when the answer ended").toBe(0);
  });

  it("检查本身会失败：中途真的停了比空闲超时还久，就超时，已收到的文字留着", async () => {
    const clock = new HandClock();
    // 「地」之后停 2×IDLE：等它真上了 stdout 再拨表，不然拨早了，它会被当成停顿之后才到
    let shown = "";
    let heard!: () => void;
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    const silence: Pause = { until: () => arrived.then(() => clock.advance(IDLE * 2)) };
    const onStdout = (text: string): void => {
      shown += text;
      if (shown.includes("慢慢地")) heard();
    };
    const run = await runAgainst(() => ({ chunks: steady(() => clock.gap(GAP), { silence }) }), { [ENV.timeoutMs]: String(IDLE) }, { timers: clock, onStdout });
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toBe("慢慢地\n");
    expect(run.stderr.at(-1)).toBe(`error: request timed out: nothing arrived for ${IDLE} ms (raise MINI_PI_TIMEOUT_MS for slow models)`);
  });

  it("总时长上限：设了 MINI_PI_TOTAL_TIMEOUT_MS，再稳也到点就停，说清该调哪个变量", async () => {
    const clock = new HandClock();
    const run = await runAgainst(() => ({ chunks: steady(() => clock.gap(GAP)) }), { [ENV.timeoutMs]: String(IDLE), [ENV.totalTimeoutMs]: String(IDLE + 100) }, { timers: clock });
    expect(run.code).toBe(EXIT.failed);
    expect(run.stderr.at(-1)).toBe(`error: request took longer than ${IDLE + 100} ms in total (raise or unset MINI_PI_TOTAL_TIMEOUT_MS)`);

    // 真的时间：空闲超时给足一分钟，只让总时长那只表响。回答至少要一秒才吐得完，表只会晚响不会早响，机器再忙也不误报
    const TOTAL = 300;
    const real = await runAgainst(() => ({ chunks: steady(() => ({ waitMs: GAP })) }), { [ENV.timeoutMs]: "60000", [ENV.totalTimeoutMs]: String(TOTAL) });
    expect(real.code).toBe(EXIT.failed);
    expect(real.stderr.at(-1)).toBe(`error: request took longer than ${TOTAL} ms in total (raise or unset MINI_PI_TOTAL_TIMEOUT_MS)`);
  });

  it("字节任意切开、每块之间都停一下送来：保活照样算数，结果一样（fast-check）", async () => {
    const body = utf8([KEEP_ALIVE, KEEP_ALIVE, textAnswer(["切开🙂", "也一样"])].join(""));
    const whole = await sameUnderSplits(
      body,
      (chunks) => {
        const clock = new HandClock();
        return runAgainst(() => ({ chunks: chunks.flatMap((c): ServerReply["chunks"] => [c, clock.gap(40)]) }), { [ENV.timeoutMs]: String(IDLE) }, { timers: clock });
      },
      5,
    );
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("切开🙂也一样\n");
  });

  it("设置：总时长上限默认不设，写了就得是正整数；空闲超时默认 120000", () => {
    const base = { [ENV.baseUrl]: "http://127.0.0.1:1/v1", [ENV.model]: "m" };
    expect(readLiveConfig(base)).toMatchObject({ ok: true, config: { timeoutMs: 120_000, totalTimeoutMs: undefined } });
    expect(readLiveConfig({ ...base, [ENV.totalTimeoutMs]: "600000" })).toMatchObject({ ok: true, config: { totalTimeoutMs: 600_000 } });
    expect(readLiveConfig({ ...base, [ENV.totalTimeoutMs]: "10m", [ENV.timeoutMs]: "-5" })).toEqual({
      ok: false,
      problems: [`${ENV.timeoutMs} 要是正整数（毫秒），现在是 "-5"`, `${ENV.totalTimeoutMs} 要是正整数（毫秒），现在是 "10m"`],
    });
  });
});

describe("边到边打：回答的文字一到就上 stdout，一轮结束时不再打第二遍", () => {
  /**
   * 服务器先送第一句，然后等：等到 stdout 上出现第一句，才送剩下的。不边到边打的话，它就一直等到空闲超时。
   * 请求的表是一只假表：没人拨它就永远不响，机器再忙，边到边打的那次也不会被超时误伤。
   */
  async function gated(makeAgent: (config: LiveConfig, io: LiveIO, clock: HandClock) => Agent): Promise<{ order: string[]; reply: AssistantMessage }> {
    const clock = new HandClock();
    const order: string[] = [];
    let shown!: () => void;
    const firstShown = new Promise<void>((resolve) => (shown = resolve));
    const chunks: ServerReply["chunks"] = [
      event(textChunk("第一句🙂，")),
      { until: firstShown.then(() => order.push("server: rest")) },
      event(textChunk("第二句。")),
      event(finishChunk("stop")),
      DONE,
    ];
    return withServer(
      () => ({ chunks }),
      async (server) => {
        const read = readLiveConfig({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m", [ENV.timeoutMs]: "1500" });
        if (!read.ok) throw new Error(read.problems.join("\n"));
        const io = liveIO({}, {
          stdout: {
            write: (text) => {
              order.push(`stdout: ${text}`);
              if (text.includes("第一句")) shown();
            },
          },
          timers: clock,
        });
        const reply = await runOneTurn(makeAgent(read.config, io, clock), "说两句");
        return { order, reply };
      },
    );
  }

  it("第一句在服务器送出第二句之前就上了 stdout；整段只打一次", async () => {
    const { order, reply } = await gated((config, io) => createLiveAgent(config, io).agent);
    expect(reply).toEqual({ role: "assistant", content: "第一句🙂，第二句。", stopReason: "stop" });
    expect(order).toEqual(["stdout: 第一句🙂，", "server: rest", "stdout: 第二句。", "stdout: \n"]);
  });

  it("检查本身会失败：换回课里一轮结束才打的 PrintMode，第一句等不来，服务器一直等到空闲超时", async () => {
    const { order, reply } = await gated((config, io, clock) => ({
      ...createLiveAgent(config, io).agent,
      // 第一句到了之后服务器就不出声了：把表拨过空闲超时
      provider: { stream: (input) => silentAfterFirstText(new OpenAICompatibleProvider({ ...config, timers: clock }).stream(input), clock, config.timeoutMs) },
      mode: new PrintMode({ log: (line) => io.stdout.write(`${line}\n`) }),
    }));
    expect(reply.stopReason).toBe("error");
    // 第一句要等到一轮（因超时）结束才打出来，服务器这时才放行，已经晚了
    expect(order).toEqual(["stdout: 第一句🙂，\nerror: request timed out: nothing arrived for 1500 ms (raise MINI_PI_TIMEOUT_MS for slow models)\n", "server: rest"]);
  });

  it("字节任意切开送来：stdout 上的文字一样，从不重复（fast-check）", async () => {
    const bytes = utf8(textAnswer(["一🙂", "二", "三。"]));
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst(() => ({ chunks })));
    expect(whole.stdout).toBe("一🙂二三。\n");
  });
});

describe("live/main.ts 当命令跑：没有设置就打说明，以非零退出", () => {
  it("真的当命令跑（node --import tsx live/main.ts），没有设置：打说明，退出码 2", async () => {
    const result = await promisify(execFile)(process.execPath, ["--import", "tsx", "live/main.ts", "你好"], { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${ENV.baseUrl} 没有设置`);
  });
});

describe("文档和代码对得上：命令、变量表、退出码表；npm run -s live 的 stdout 一字不差就是回答", () => {
  const liveReadme = readFileSync(join(ROOT, "live", "README.md"), "utf8");
  const rootReadme = readFileSync(join(ROOT, "README.md"), "utf8");
  /** 根 README 里「对接真实模型」那一节。 */
  const rootSection = rootReadme.slice(rootReadme.indexOf("## 对接真实模型"), rootReadme.indexOf("\n## ", rootReadme.indexOf("## 对接真实模型") + 1));
  /** 以 header 这一行开头的 Markdown 表，去掉表头和分隔行，每行拆成一格格。 */
  const table = (text: string, header: string): string[][] => {
    const lines = text.split("\n");
    const start = lines.indexOf(header);
    expect(start, header).toBeGreaterThanOrEqual(0);
    const body: string[][] = [];
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith("|")) break;
      body.push(line.slice(1, -1).split("|").map((cell) => cell.trim()));
    }
    return body;
  };

  it("live/README.md 的变量表：变量、顺序、必填与否、默认值都和 config.ts 的 ENV、DEFAULTS 一致", () => {
    const variables = table(liveReadme, "| 变量 | 必填 | 默认 | 说明 |");
    expect(variables.map((row) => row[0])).toEqual(Object.values(ENV).map((name) => `\`${name}\``));
    for (const [key, name] of Object.entries(ENV)) {
      const [, required, fallback] = variables.find((row) => row[0] === `\`${name}\``) ?? [];
      if (key in DEFAULTS) {
        const value = DEFAULTS[key as keyof typeof DEFAULTS];
        expect([required, fallback], name).toEqual(["否", value === undefined ? "不限" : `\`${value}\``]);
      } else {
        expect([required === "否", fallback], name).toEqual([false, "—"]);
      }
    }
  });

  it("live/README.md 的退出码表：和 main.ts 的 EXIT 一一对应；根 README 那一节也提到了每个退出码和每个变量", () => {
    expect(table(liveReadme, "| 退出码 | 什么时候 |").map((row) => Number(row[0]))).toEqual(Object.values(EXIT));
    const sentence = rootSection.slice(rootSection.indexOf("退出码："));
    for (const code of Object.values(EXIT)) expect(sentence, `exit ${code}`).toMatch(new RegExp(`(^|[^\\d])${code} `, "m"));
    for (const name of Object.values(ENV)) expect(rootSection, name).toContain(`\`${name}\``);
  });

  it("文档和程序给的命令都带 -s（不带的话 npm 的横幅会混进 stdout）", () => {
    const commands = [liveReadme, rootSection, [LIVE_USAGE, ...configHelp(["x"])].join("\n")].join("\n");
    expect(commands).toContain("npm run -s live --");
    expect(commands).not.toMatch(/npm run live/);
    expect(commands).not.toMatch(/run live --/);
  });

  it(
    "真的用 npm 跑：npm run -s live 的 stdout 一字不差是回答；去掉 -s，npm 的横幅就混了进去（检查本身会失败）",
    async () => {
      await withServer(
        () => ({ chunks: [textAnswer(["只有", "回答🙂。"])] }),
        async (server) => {
          const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model" };
          const npm = (args: string[]) => promisify(execFile)("npm", ["--prefix", ROOT, ...args], { cwd: workspace.work, env });
          // 两次一起跑：各问各的，回放服务器对每个请求都回同一段回答
          const [silent, loud] = await Promise.all([npm(["run", "-s", "live", "--", "问一下"]), npm(["run", "live", "--", "问一下"])]);
          expect(silent.stdout).toBe("只有回答🙂。\n");
          expect(silent.stderr).toContain(`工作目录 ${workspace.work}`); // INIT_CWD 找回了敲命令的目录
          expect(loud.stdout).toContain("> learn-pi-agent@0.1.0 live");
          expect(loud.stdout).not.toBe(silent.stdout);
        },
      );
    },
  );
});
