// npm run test:load（scripts/test-load.ts）：占满每个核再跑 npm test。这里查它的参数、package.json 和 .ci/run 里的写法，
// 和最要紧的一件事：hog 一定会退出，哪怕启动它的进程被 SIGKILL、来不及收拾。
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { HOG_SOURCE, hogCommand, parseLoadArgs, startHogs, stopHogs } from "../scripts/test-load.ts";
import { ROOT } from "../tooling/course.ts";

/** 这个进程还在不在（Linux 上僵尸进程也算不在：它已经退出，只是还没被收走）。 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z /s.test(readFileSync(stat, "utf8"));
}

/** 起一个中间进程，由它照 startHogs 的写法（hogCommand）起一个 hog，交回两者的 pid。source 给了就换一段 hog 的源码。 */
async function hogUnderParent(source?: string): Promise<{ parent: number; hog: number }> {
  const script = 'const [command, args, options] = JSON.parse(process.argv[1]); const hog = require("node:child_process").spawn(command, args, options); console.log(hog.pid); setInterval(() => {}, 1000);';
  const parent = spawn(process.execPath, ["-e", script, JSON.stringify(hogCommand(source))], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve) => parent.stdout.setEncoding("utf8").once("data", (d: string) => resolve(d)));
  return { parent: parent.pid as number, hog: Number(line.trim()) };
}

describe("npm run test:load", () => {
  it("参数：默认三遍、每个核一个 hog；--runs / --hogs 是它自己的，别的原样交给 npm test；写错了一句说明", () => {
    expect(parseLoadArgs([], 2)).toEqual({ runs: 3, hogs: 2, rest: [] });
    expect(parseLoadArgs(["--runs", "1", "--reporter=json", "--outputFile.json=/tmp/r.json"], 2)).toEqual({ runs: 1, hogs: 2, rest: ["--reporter=json", "--outputFile.json=/tmp/r.json"] });
    expect(parseLoadArgs(["--hogs=4", "--runs=2", "tests/x.test.ts"], 2)).toEqual({ runs: 2, hogs: 4, rest: ["tests/x.test.ts"] });
    for (const bad of [["--runs"], ["--runs", "0"], ["--hogs=-1"], ["--runs", "two"]]) expect(parseLoadArgs(bad, 2), bad.join(" ")).toMatch(/^--(runs|hogs) 要一个正整数，现在是 .*\n用法：npm run test:load/);
  });

  it("package.json 的脚本是它；.ci/run 跑它一遍、把报告算进最后一行", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts["test:load"]).toBe("tsx scripts/test-load.ts");
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8");
    const commands = ci.split("\n").filter((l) => !l.trimStart().startsWith("#") && l.includes("npm run test:load"));
    expect(commands).toEqual(['npm run test:load -- --runs 1 --reporter=default --reporter=json --outputFile.json="$load" || status=1']);
    expect(ci).toMatch(/^' "\$extra_failed" .*"\$load"/m);
  });

  it("hog 真的在转，stopHogs 杀得掉；startHogs 起的就是 hogCommand 那条（下面两条照它起）", async () => {
    const [hog] = startHogs(1);
    if (hog?.pid === undefined) throw new Error("no hog");
    expect(hog.spawnargs).toEqual([hogCommand()[0], ...hogCommand()[1]]);
    const exited = new Promise((resolve) => hog.once("exit", resolve));
    expect(alive(hog.pid)).toBe(true);
    // 真的在转：它用掉的 CPU 时间（/proc 里的 utime + stime）一直在涨；机器再忙也只是涨得慢，等不到就是卡住了，由防卡死的上限报出来
    if (existsSync(`/proc/${hog.pid}/stat`)) {
      const cpuTicks = (): number => {
        const fields = readFileSync(`/proc/${hog.pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
        return Number(fields[11]) + Number(fields[12]);
      };
      const start = cpuTicks();
      while (cpuTicks() < start + 5) await sleep(20);
    }
    stopHogs([hog]);
    await exited;
    expect(alive(hog.pid)).toBe(false);
  });

  it("启动 hog 的进程被 SIGKILL（来不及收拾）：hog 自己发现、退出", async () => {
    const { parent, hog } = await hogUnderParent();
    expect(alive(hog)).toBe(true);
    process.kill(parent, "SIGKILL");
    while (alive(hog)) await sleep(20); // 没等到就是卡住了，由防卡死的上限报出来
    expect(alive(hog)).toBe(false);
  });

  it("检查本身会失败：不读 stdin 的 hog（同样接着管道），父进程被 SIGKILL 之后还在转", async () => {
    const { parent, hog } = await hogUnderParent(HOG_SOURCE.replace(/^process\.stdin\.on.*?\.resume\(\); /, ""));
    try {
      process.kill(parent, "SIGKILL");
      await sleep(300); // 真的 hog 几十毫秒就读到管道的结尾；这一只永远不会走
      expect(alive(hog)).toBe(true);
    } finally {
      process.kill(hog, "SIGKILL");
    }
  });
});
