// 毕业练习 3 的参考答案里唯一的代码：把包里的 AGENTS.md 交给 Pi 的系统提示。
// Pi 的包清单（package.json 的 pi 键）只认 extensions、skills、prompts、themes 四类，没有 AGENTS.md；
// 项目自己的 AGENTS.md 倒是不看信任就加载。要随包带一份项目说明、又只在项目被信任时生效，
// 就由包里的这个扩展在每次开跑之前把它加进系统提示——包写在项目的 .pi/settings.json 里，项目不被信任，Pi 就不装这个包。
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** 包自己的 AGENTS.md：和这个文件在同一个包里，路径从这个文件的位置算，不管 Pi 在哪个目录里跑。 */
export const NOTES = fileURLToPath(new URL("../AGENTS.md", import.meta.url));

/**
 * 扩展本身：每次开跑之前（before_agent_start），把 AGENTS.md 加进这一次的 contextFiles。
 * Pi 每一次都从原来的设置重新拼一份 systemPromptOptions 交给监听，所以每次加一遍不会越加越多。
 */
export default function projectNotes(pi: ExtensionAPI): void {
  pi.on("before_agent_start", (event) => {
    event.systemPromptOptions.contextFiles.push({ path: NOTES, content: readFileSync(NOTES, "utf8") });
  });
}
