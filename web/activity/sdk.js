// The one thing the board takes from Discord's Embedded App SDK; build.rs bundles it (and what
// it imports) into `discord-sdk.js`, which the board loads only when Discord runs it as an
// Activity.
export { DiscordSDK } from "@discord/embedded-app-sdk";
