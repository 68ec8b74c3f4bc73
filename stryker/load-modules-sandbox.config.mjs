import { strykerConfig } from "./config.mjs";

export default strykerConfig("load-modules-sandbox");
