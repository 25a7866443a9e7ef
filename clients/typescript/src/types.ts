/** Names for the API's shapes, all generated from the OpenAPI document (src/schema.d.ts). */

import type { components } from "./schema.js";

export type Schemas = components["schemas"];

export type Caller = Schemas["CallerRead"];
export type World = Schemas["WorldRead"];
export type WorldCreate = Schemas["WorldCreate"];
export type WorldCreated = Schemas["WorldCreated"];
export type WorldUpdate = Schemas["WorldUpdate"];
/** What a world's minds may spend on the model, per game day and per wall hour. */
export type ModelBudget = Schemas["ModelBudget"];
export type Clock = Schemas["ClockRead"];
export type ClockUpdate = Schemas["ClockUpdate"];
export type Key = Schemas["KeyRead"];
export type KeyCreated = Schemas["KeyCreated"];
export type Agent = Schemas["AgentRead"];
export type AgentCreate = Schemas["AgentCreate"];
export type AgentUpdate = Schemas["AgentUpdate"];
export type KnownMap = Schemas["KnownMap"];
export type MapSpec = Schemas["MapSpec"];
export type MapRead = Schemas["MapRead"];
export type MapSummary = Schemas["MapSummary"];
export type PersonaPack = Schemas["PersonaPack"];
export type ImportSummary = Schemas["ImportSummary"];
export type ObjectStateChange = Schemas["ObjectStateChange"];
export type ObjectState = Schemas["ObjectStateRead"];
export type MemoryKind = Schemas["MemoryKind"];
export type MemoryCreate = Schemas["MemoryCreate"];
export type Memory = Schemas["MemoryRead"];
export type MemoryDetail = Schemas["MemoryDetail"];
export type SearchRequest = Schemas["SearchRequest"];
export type SearchResponse = Schemas["SearchResponse"];
export type AgentStep = Schemas["AgentStep"];
export type StepResponse = Schemas["StepResponse"];
export type AgentAction = Schemas["AgentAction"];
export type AgentDoing = Schemas["AgentDoing"];
/** One message of a world's event stream, parsed: `event` is the type, `data` its payload. */
export type WorldEvent = Schemas["WorldEvent"];
export type ChatRequest = Schemas["ChatRequest"];
export type ChatResponse = Schemas["ChatResponse"];
export type InterviewRequest = Schemas["InterviewRequest"];
export type InterviewResponse = Schemas["InterviewResponse"];
export type PlanDay = Schemas["PlanDay"];
export type UsageReport = Schemas["UsageReport"];
export type BudgetReport = Schemas["BudgetReport"];
export type UsageTimeline = Schemas["UsageTimeline"];
export type Conversation = Schemas["ConversationRead"];
export type Relationship = Schemas["RelationshipRead"];
export type Readiness = Schemas["Readiness"];
