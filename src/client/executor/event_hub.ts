/**
 * The executor's event fan-out; it lives in `../common/event_hub.ts`, shared
 * with the spectator.
 *
 * @module
 */
export { EventHub, type SubscribeOptions } from "../common/event_hub.ts";
