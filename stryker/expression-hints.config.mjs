import { strykerConfig } from "./config.mjs";

export default strykerConfig("expression-hints");
