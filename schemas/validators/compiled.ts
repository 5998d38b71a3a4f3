/* Generated from schemas/ by `npm run validators` (scripts/standalone-validators.ts): ajv's standalone code.
   Do not edit: a test fails when this file and the schemas differ. */
/* eslint-disable max-len */
// @ts-nocheck
// Generated JavaScript: schemas/validators/index.ts types it where it imports it.
import { formats } from './formats.js';
export const validateHumanEvaluation = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/human-evaluation.json","title":"HumanEvaluation","description":"HumanEvaluation: response of Fetch Human Evaluation (GET /human-evaluations/{evaluation_id}). All fields are required. Allowed values of evaluation_type: not shown. States of status: not shown.","type":"object","required":["id","app_id","user_id","user_username","evaluation_type","variant_ids","variant_names","variants_revision_ids","revisions","testset_id","testset_name","status","created_at","updated_at"],"properties":{"id":{"type":"string","x-personal":true},"app_id":{"type":"string","x-personal":true},"user_id":{"type":"string","x-personal":true},"user_username":{"type":"string","x-personal":true},"evaluation_type":{"type":"string"},"variant_ids":{"type":"array","items":{"type":"string"},"x-personal":true},"variant_names":{"type":"array","items":{"type":"string"},"x-personal":true},"variants_revision_ids":{"type":"array","items":{"type":"string"},"x-personal":true},"revisions":{"type":"array","items":{"type":"string"}},"testset_id":{"type":"string","x-personal":true},"testset_name":{"type":"string","x-personal":true},"status":{"type":"string"},"created_at":{"type":"string","format":"date-time"},"updated_at":{"type":"string","format":"date-time"}},"examples":[{"id":"6637c0a25368ef07b03a64cd","app_id":"6637c0a25368ef07b03a64a0","user_id":"6637c0a25368ef07b03a6401","user_username":"jane.doe","evaluation_type":"human_a_b_testing","variant_ids":["6637c0a25368ef07b03a64b1","6637c0a25368ef07b03a64b2"],"variant_names":["app.default","app.gpt4o-mini"],"variants_revision_ids":["6637c0a25368ef07b03a64c1","6637c0a25368ef07b03a64c2"],"revisions":["3","5"],"testset_id":"6637c0a25368ef07b03a64e0","testset_name":"customer_support_questions","status":"EVALUATION_FINISHED","created_at":"2024-05-20T10:11:12.123456+00:00","updated_at":"2024-05-20T10:19:40.002311+00:00"}]};
const formats0 = formats["date-time"];

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/human-evaluation.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.app_id === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "app_id"},message:"must have required property '"+"app_id"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.user_id === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "user_id"},message:"must have required property '"+"user_id"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.user_username === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "user_username"},message:"must have required property '"+"user_username"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.evaluation_type === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evaluation_type"},message:"must have required property '"+"evaluation_type"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.variant_ids === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variant_ids"},message:"must have required property '"+"variant_ids"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.variant_names === undefined){
const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variant_names"},message:"must have required property '"+"variant_names"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data.variants_revision_ids === undefined){
const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variants_revision_ids"},message:"must have required property '"+"variants_revision_ids"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data.revisions === undefined){
const err8 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "revisions"},message:"must have required property '"+"revisions"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data.testset_id === undefined){
const err9 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "testset_id"},message:"must have required property '"+"testset_id"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data.testset_name === undefined){
const err10 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "testset_name"},message:"must have required property '"+"testset_name"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data.status === undefined){
const err11 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data.created_at === undefined){
const err12 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "created_at"},message:"must have required property '"+"created_at"+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data.updated_at === undefined){
const err13 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "updated_at"},message:"must have required property '"+"updated_at"+"'"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err14 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.app_id !== undefined){
if(typeof data.app_id !== "string"){
const err15 = {instancePath:instancePath+"/app_id",schemaPath:"#/properties/app_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.user_id !== undefined){
if(typeof data.user_id !== "string"){
const err16 = {instancePath:instancePath+"/user_id",schemaPath:"#/properties/user_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.user_username !== undefined){
if(typeof data.user_username !== "string"){
const err17 = {instancePath:instancePath+"/user_username",schemaPath:"#/properties/user_username/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.evaluation_type !== undefined){
if(typeof data.evaluation_type !== "string"){
const err18 = {instancePath:instancePath+"/evaluation_type",schemaPath:"#/properties/evaluation_type/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.variant_ids !== undefined){
let data5 = data.variant_ids;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
if(typeof data5[i0] !== "string"){
const err19 = {instancePath:instancePath+"/variant_ids/" + i0,schemaPath:"#/properties/variant_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/variant_ids",schemaPath:"#/properties/variant_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.variant_names !== undefined){
let data7 = data.variant_names;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
if(typeof data7[i1] !== "string"){
const err21 = {instancePath:instancePath+"/variant_names/" + i1,schemaPath:"#/properties/variant_names/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/variant_names",schemaPath:"#/properties/variant_names/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.variants_revision_ids !== undefined){
let data9 = data.variants_revision_ids;
if(Array.isArray(data9)){
const len2 = data9.length;
for(let i2=0; i2<len2; i2++){
if(typeof data9[i2] !== "string"){
const err23 = {instancePath:instancePath+"/variants_revision_ids/" + i2,schemaPath:"#/properties/variants_revision_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath:instancePath+"/variants_revision_ids",schemaPath:"#/properties/variants_revision_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.revisions !== undefined){
let data11 = data.revisions;
if(Array.isArray(data11)){
const len3 = data11.length;
for(let i3=0; i3<len3; i3++){
if(typeof data11[i3] !== "string"){
const err25 = {instancePath:instancePath+"/revisions/" + i3,schemaPath:"#/properties/revisions/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/revisions",schemaPath:"#/properties/revisions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.testset_id !== undefined){
if(typeof data.testset_id !== "string"){
const err27 = {instancePath:instancePath+"/testset_id",schemaPath:"#/properties/testset_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data.testset_name !== undefined){
if(typeof data.testset_name !== "string"){
const err28 = {instancePath:instancePath+"/testset_name",schemaPath:"#/properties/testset_name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.status !== undefined){
if(typeof data.status !== "string"){
const err29 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.created_at !== undefined){
let data16 = data.created_at;
if(typeof data16 === "string"){
if(!(formats0.validate(data16))){
const err30 = {instancePath:instancePath+"/created_at",schemaPath:"#/properties/created_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
else {
const err31 = {instancePath:instancePath+"/created_at",schemaPath:"#/properties/created_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data.updated_at !== undefined){
let data17 = data.updated_at;
if(typeof data17 === "string"){
if(!(formats0.validate(data17))){
const err32 = {instancePath:instancePath+"/updated_at",schemaPath:"#/properties/updated_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
else {
const err33 = {instancePath:instancePath+"/updated_at",schemaPath:"#/properties/updated_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
}
else {
const err34 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"id":true,"app_id":true,"user_id":true,"user_username":true,"evaluation_type":true,"variant_ids":true,"variant_names":true,"variants_revision_ids":true,"revisions":true,"testset_id":true,"testset_name":true,"status":true,"created_at":true,"updated_at":true},"dynamicProps":false,"dynamicItems":false};

export const validateEvaluation = validate21;
const schema32 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/evaluation.json","title":"Evaluation","description":"Evaluation: element of the response of Create Evaluation (POST /evaluations). Holds aggregated results per evaluator configuration and cost and latency figures. Note the field name variant_revision_ids here, against variants_revision_ids in HumanEvaluation.","type":"object","required":["id","app_id","user_id","user_username","variant_ids","variant_names","variant_revision_ids","revisions","status","aggregated_results","created_at","updated_at"],"properties":{"id":{"type":"string","x-personal":true},"app_id":{"type":"string","x-personal":true},"user_id":{"type":"string","x-personal":true},"user_username":{"type":"string","x-personal":true},"variant_ids":{"type":"array","items":{"type":"string"},"x-personal":true},"variant_names":{"type":"array","items":{"type":"string"},"x-personal":true},"variant_revision_ids":{"type":"array","items":{"type":"string"},"x-personal":true},"revisions":{"type":"array","items":{"type":"string"}},"testset_id":{"type":"string","x-personal":true},"testset_name":{"type":"string","x-personal":true},"status":{"$ref":"result.json","x-personal":false},"aggregated_results":{"type":"array","items":{"$ref":"aggregated-result.json"}},"average_cost":{"$ref":"result.json"},"total_cost":{"$ref":"result.json"},"average_latency":{"$ref":"result.json"},"created_at":{"type":"string","format":"date-time"},"updated_at":{"type":"string","format":"date-time"}},"examples":[{"id":"6637c0a25368ef07b03a64f0","app_id":"6637c0a25368ef07b03a64a0","user_id":"6637c0a25368ef07b03a6401","user_username":"jane.doe","variant_ids":["6637c0a25368ef07b03a64b1"],"variant_names":["app.default"],"variant_revision_ids":["6637c0a25368ef07b03a64c1"],"revisions":["3"],"testset_id":"6637c0a25368ef07b03a64e0","testset_name":"customer_support_questions","status":{"type":"status","value":"EVALUATION_INITIALIZED"},"aggregated_results":[],"created_at":"2024-05-20T10:11:12.123456+00:00","updated_at":"2024-05-20T10:11:12.123456+00:00"}]};
const schema33 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/result.json","title":"Result","description":"Result object. The type and allowed forms of value: not shown. An Error object may be attached to report a failed computation.","type":"object","required":["type"],"properties":{"type":{"type":"string"},"value":{"description":"Untyped value: any JSON value.","x-personal":true},"error":{"$ref":"error.json"}},"examples":[{"type":"number","value":0.75},{"type":"status","value":"EVALUATION_FAILED","error":{"message":"Evaluation Failed"}},{"type":"cost","value":0.0042}]};
const schema34 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/error.json","title":"Error","description":"Error object. Inside Evaluation, an Error object (message required, stacktrace optional) may be attached to a Result object to report a failed computation.","type":"object","required":["message"],"properties":{"message":{"type":"string"},"stacktrace":{"type":"string","x-personal":true}},"examples":[{"message":"Evaluation Failed","stacktrace":"Traceback (most recent call last):\n  File \"evaluations.py\", line 211, in evaluate\nValueError: testset is empty"},{"message":"No valid values found for cost aggregation."}]};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/result.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.type !== undefined){
if(typeof data.type !== "string"){
const err1 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.error !== undefined){
let data2 = data.error;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.message === undefined){
const err2 = {instancePath:instancePath+"/error",schemaPath:"error.json/required",keyword:"required",params:{missingProperty: "message"},message:"must have required property '"+"message"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data2.message !== undefined){
if(typeof data2.message !== "string"){
const err3 = {instancePath:instancePath+"/error/message",schemaPath:"error.json/properties/message/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data2.stacktrace !== undefined){
if(typeof data2.stacktrace !== "string"){
const err4 = {instancePath:instancePath+"/error/stacktrace",schemaPath:"error.json/properties/stacktrace/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/error",schemaPath:"error.json/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":{"type":true,"value":true,"error":true},"dynamicProps":false,"dynamicItems":false};

const schema35 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/aggregated-result.json","title":"AggregatedResult","description":"AggregatedResult: the result of one evaluator configuration. The evaluator_config is declared as one of several alternatives (anyOf); only the EvaluatorConfig shape is given.","type":"object","required":["evaluator_config","result"],"properties":{"evaluator_config":{"anyOf":[{"$ref":"evaluator-config.json"},{"$ref":"undocumented-evaluator-config.json"}]},"result":{"$ref":"result.json"}},"examples":[{"evaluator_config":{"id":"6637c0a25368ef07b03a64d1","name":"Exact match","evaluator_key":"auto_exact_match","settings_values":{"correct_answer_key":"correct_answer"},"created_at":"2024-05-20T10:11:12.123456+00:00","updated_at":"2024-05-20T10:11:12.123456+00:00"},"result":{"type":"number","value":0.8}}]};
const schema36 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/evaluator-config.json","title":"EvaluatorConfig","description":"EvaluatorConfig: the one alternative of AggregatedResult.evaluator_config that the spec shows. The keys inside settings_values: not shown. The format of identifiers: not shown.","type":"object","required":["id","name","evaluator_key","created_at","updated_at"],"properties":{"id":{"type":"string","x-personal":true},"name":{"type":"string","x-personal":true},"evaluator_key":{"type":"string"},"settings_values":{"type":"object","additionalProperties":true},"created_at":{"type":"string","format":"date-time"},"updated_at":{"type":"string","format":"date-time"}},"examples":[{"id":"6637c0a25368ef07b03a64d1","name":"Exact match","evaluator_key":"auto_exact_match","settings_values":{"correct_answer_key":"correct_answer"},"created_at":"2024-05-20T10:11:12.123456+00:00","updated_at":"2024-05-20T10:11:12.123456+00:00"}]};
const schema37 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/undocumented-evaluator-config.json","title":"UndocumentedEvaluatorConfig","description":"Stands for the alternatives of AggregatedResult.evaluator_config that the spec declares (anyOf) but does not show: any value that does not match the documented EvaluatorConfig. It is disjoint from EvaluatorConfig, so a validator can tell which of the two a value matched.","not":{"$ref":"evaluator-config.json"},"examples":[{}]};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/undocumented-evaluator-config.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs0 = errors;
const _errs1 = errors;
const _errs2 = errors;
if(errors === _errs2){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((((data.id === undefined) && (missing0 = "id")) || ((data.name === undefined) && (missing0 = "name"))) || ((data.evaluator_key === undefined) && (missing0 = "evaluator_key"))) || ((data.created_at === undefined) && (missing0 = "created_at"))) || ((data.updated_at === undefined) && (missing0 = "updated_at"))){
const err0 = {};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
else {
if(data.id !== undefined){
const _errs4 = errors;
if(typeof data.id !== "string"){
const err1 = {};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var valid2 = _errs4 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.name !== undefined){
const _errs7 = errors;
if(typeof data.name !== "string"){
const err2 = {};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var valid2 = _errs7 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.evaluator_key !== undefined){
const _errs10 = errors;
if(typeof data.evaluator_key !== "string"){
const err3 = {};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
var valid2 = _errs10 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.settings_values !== undefined){
let data3 = data.settings_values;
const _errs12 = errors;
if(errors === _errs12){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
}
else {
const err4 = {};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
var valid2 = _errs12 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.created_at !== undefined){
let data4 = data.created_at;
const _errs15 = errors;
if(errors === _errs15){
if(errors === _errs15){
if(typeof data4 === "string"){
if(!(formats0.validate(data4))){
const err5 = {};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
var valid2 = _errs15 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.updated_at !== undefined){
let data5 = data.updated_at;
const _errs17 = errors;
if(errors === _errs17){
if(errors === _errs17){
if(typeof data5 === "string"){
if(!(formats0.validate(data5))){
const err7 = {};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
var valid2 = _errs17 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
}
else {
const err9 = {};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
var valid0 = _errs1 === errors;
if(valid0){
const err10 = {instancePath,schemaPath:"#/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
else {
errors = _errs0;
if(vErrors !== null){
if(_errs0){
vErrors.length = _errs0;
}
else {
vErrors = null;
}
}
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"dynamicProps":false,"dynamicItems":false};


function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/aggregated-result.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate24.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.evaluator_config === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evaluator_config"},message:"must have required property '"+"evaluator_config"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.result === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "result"},message:"must have required property '"+"result"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.evaluator_config !== undefined){
let data0 = data.evaluator_config;
const _errs2 = errors;
let valid1 = false;
const _errs3 = errors;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.id === undefined){
const err2 = {instancePath:instancePath+"/evaluator_config",schemaPath:"evaluator-config.json/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data0.name === undefined){
const err3 = {instancePath:instancePath+"/evaluator_config",schemaPath:"evaluator-config.json/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data0.evaluator_key === undefined){
const err4 = {instancePath:instancePath+"/evaluator_config",schemaPath:"evaluator-config.json/required",keyword:"required",params:{missingProperty: "evaluator_key"},message:"must have required property '"+"evaluator_key"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data0.created_at === undefined){
const err5 = {instancePath:instancePath+"/evaluator_config",schemaPath:"evaluator-config.json/required",keyword:"required",params:{missingProperty: "created_at"},message:"must have required property '"+"created_at"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data0.updated_at === undefined){
const err6 = {instancePath:instancePath+"/evaluator_config",schemaPath:"evaluator-config.json/required",keyword:"required",params:{missingProperty: "updated_at"},message:"must have required property '"+"updated_at"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data0.id !== undefined){
if(typeof data0.id !== "string"){
const err7 = {instancePath:instancePath+"/evaluator_config/id",schemaPath:"evaluator-config.json/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data0.name !== undefined){
if(typeof data0.name !== "string"){
const err8 = {instancePath:instancePath+"/evaluator_config/name",schemaPath:"evaluator-config.json/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data0.evaluator_key !== undefined){
if(typeof data0.evaluator_key !== "string"){
const err9 = {instancePath:instancePath+"/evaluator_config/evaluator_key",schemaPath:"evaluator-config.json/properties/evaluator_key/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data0.settings_values !== undefined){
let data4 = data0.settings_values;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
}
else {
const err10 = {instancePath:instancePath+"/evaluator_config/settings_values",schemaPath:"evaluator-config.json/properties/settings_values/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data0.created_at !== undefined){
let data5 = data0.created_at;
if(typeof data5 === "string"){
if(!(formats0.validate(data5))){
const err11 = {instancePath:instancePath+"/evaluator_config/created_at",schemaPath:"evaluator-config.json/properties/created_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/evaluator_config/created_at",schemaPath:"evaluator-config.json/properties/created_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data0.updated_at !== undefined){
let data6 = data0.updated_at;
if(typeof data6 === "string"){
if(!(formats0.validate(data6))){
const err13 = {instancePath:instancePath+"/evaluator_config/updated_at",schemaPath:"evaluator-config.json/properties/updated_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/evaluator_config/updated_at",schemaPath:"evaluator-config.json/properties/updated_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/evaluator_config",schemaPath:"evaluator-config.json/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid1 = valid1 || _valid0;
if(_valid0){
var props0 = {};
props0.id = true;
props0.name = true;
props0.evaluator_key = true;
props0.settings_values = true;
props0.created_at = true;
props0.updated_at = true;
}
const _errs21 = errors;
if(!(validate25(data0, {instancePath:instancePath+"/evaluator_config",parentData:data,parentDataProperty:"evaluator_config",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
var _valid0 = _errs21 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err16 = {instancePath:instancePath+"/evaluator_config",schemaPath:"#/properties/evaluator_config/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
else {
errors = _errs2;
if(vErrors !== null){
if(_errs2){
vErrors.length = _errs2;
}
else {
vErrors = null;
}
}
}
}
if(data.result !== undefined){
if(!(validate22(data.result, {instancePath:instancePath+"/result",parentData:data,parentDataProperty:"result",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate24.errors = vErrors;
return errors === 0;
}
validate24.evaluated = {"props":{"evaluator_config":true,"result":true},"dynamicProps":false,"dynamicItems":false};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/evaluation.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.app_id === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "app_id"},message:"must have required property '"+"app_id"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.user_id === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "user_id"},message:"must have required property '"+"user_id"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.user_username === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "user_username"},message:"must have required property '"+"user_username"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.variant_ids === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variant_ids"},message:"must have required property '"+"variant_ids"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.variant_names === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variant_names"},message:"must have required property '"+"variant_names"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.variant_revision_ids === undefined){
const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variant_revision_ids"},message:"must have required property '"+"variant_revision_ids"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data.revisions === undefined){
const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "revisions"},message:"must have required property '"+"revisions"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data.status === undefined){
const err8 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data.aggregated_results === undefined){
const err9 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "aggregated_results"},message:"must have required property '"+"aggregated_results"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data.created_at === undefined){
const err10 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "created_at"},message:"must have required property '"+"created_at"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data.updated_at === undefined){
const err11 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "updated_at"},message:"must have required property '"+"updated_at"+"'"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err12 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.app_id !== undefined){
if(typeof data.app_id !== "string"){
const err13 = {instancePath:instancePath+"/app_id",schemaPath:"#/properties/app_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.user_id !== undefined){
if(typeof data.user_id !== "string"){
const err14 = {instancePath:instancePath+"/user_id",schemaPath:"#/properties/user_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.user_username !== undefined){
if(typeof data.user_username !== "string"){
const err15 = {instancePath:instancePath+"/user_username",schemaPath:"#/properties/user_username/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.variant_ids !== undefined){
let data4 = data.variant_ids;
if(Array.isArray(data4)){
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
if(typeof data4[i0] !== "string"){
const err16 = {instancePath:instancePath+"/variant_ids/" + i0,schemaPath:"#/properties/variant_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/variant_ids",schemaPath:"#/properties/variant_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.variant_names !== undefined){
let data6 = data.variant_names;
if(Array.isArray(data6)){
const len1 = data6.length;
for(let i1=0; i1<len1; i1++){
if(typeof data6[i1] !== "string"){
const err18 = {instancePath:instancePath+"/variant_names/" + i1,schemaPath:"#/properties/variant_names/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/variant_names",schemaPath:"#/properties/variant_names/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.variant_revision_ids !== undefined){
let data8 = data.variant_revision_ids;
if(Array.isArray(data8)){
const len2 = data8.length;
for(let i2=0; i2<len2; i2++){
if(typeof data8[i2] !== "string"){
const err20 = {instancePath:instancePath+"/variant_revision_ids/" + i2,schemaPath:"#/properties/variant_revision_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/variant_revision_ids",schemaPath:"#/properties/variant_revision_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.revisions !== undefined){
let data10 = data.revisions;
if(Array.isArray(data10)){
const len3 = data10.length;
for(let i3=0; i3<len3; i3++){
if(typeof data10[i3] !== "string"){
const err22 = {instancePath:instancePath+"/revisions/" + i3,schemaPath:"#/properties/revisions/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/revisions",schemaPath:"#/properties/revisions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.testset_id !== undefined){
if(typeof data.testset_id !== "string"){
const err24 = {instancePath:instancePath+"/testset_id",schemaPath:"#/properties/testset_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.testset_name !== undefined){
if(typeof data.testset_name !== "string"){
const err25 = {instancePath:instancePath+"/testset_name",schemaPath:"#/properties/testset_name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.status !== undefined){
if(!(validate22(data.status, {instancePath:instancePath+"/status",parentData:data,parentDataProperty:"status",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
if(data.aggregated_results !== undefined){
let data15 = data.aggregated_results;
if(Array.isArray(data15)){
const len4 = data15.length;
for(let i4=0; i4<len4; i4++){
if(!(validate24(data15[i4], {instancePath:instancePath+"/aggregated_results/" + i4,parentData:data15,parentDataProperty:i4,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
}
}
else {
const err26 = {instancePath:instancePath+"/aggregated_results",schemaPath:"#/properties/aggregated_results/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.average_cost !== undefined){
if(!(validate22(data.average_cost, {instancePath:instancePath+"/average_cost",parentData:data,parentDataProperty:"average_cost",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
if(data.total_cost !== undefined){
if(!(validate22(data.total_cost, {instancePath:instancePath+"/total_cost",parentData:data,parentDataProperty:"total_cost",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
if(data.average_latency !== undefined){
if(!(validate22(data.average_latency, {instancePath:instancePath+"/average_latency",parentData:data,parentDataProperty:"average_latency",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
if(data.created_at !== undefined){
let data20 = data.created_at;
if(typeof data20 === "string"){
if(!(formats0.validate(data20))){
const err27 = {instancePath:instancePath+"/created_at",schemaPath:"#/properties/created_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
else {
const err28 = {instancePath:instancePath+"/created_at",schemaPath:"#/properties/created_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.updated_at !== undefined){
let data21 = data.updated_at;
if(typeof data21 === "string"){
if(!(formats0.validate(data21))){
const err29 = {instancePath:instancePath+"/updated_at",schemaPath:"#/properties/updated_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
else {
const err30 = {instancePath:instancePath+"/updated_at",schemaPath:"#/properties/updated_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":{"id":true,"app_id":true,"user_id":true,"user_username":true,"variant_ids":true,"variant_names":true,"variant_revision_ids":true,"revisions":true,"testset_id":true,"testset_name":true,"status":true,"aggregated_results":true,"average_cost":true,"total_cost":true,"average_latency":true,"created_at":true,"updated_at":true},"dynamicProps":false,"dynamicItems":false};

export const validateResult = validate22;

export const validateError = validate32;

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/error.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate32.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.message === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "message"},message:"must have required property '"+"message"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.message !== undefined){
if(typeof data.message !== "string"){
const err1 = {instancePath:instancePath+"/message",schemaPath:"#/properties/message/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.stacktrace !== undefined){
if(typeof data.stacktrace !== "string"){
const err2 = {instancePath:instancePath+"/stacktrace",schemaPath:"#/properties/stacktrace/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
validate32.errors = vErrors;
return errors === 0;
}
validate32.evaluated = {"props":{"message":true,"stacktrace":true},"dynamicProps":false,"dynamicItems":false};

export const validateAggregatedResult = validate24;

export const validateEvaluatorConfig = validate33;

function validate33(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/evaluator-config.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate33.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.name === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.evaluator_key === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evaluator_key"},message:"must have required property '"+"evaluator_key"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.created_at === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "created_at"},message:"must have required property '"+"created_at"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.updated_at === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "updated_at"},message:"must have required property '"+"updated_at"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err5 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.evaluator_key !== undefined){
if(typeof data.evaluator_key !== "string"){
const err7 = {instancePath:instancePath+"/evaluator_key",schemaPath:"#/properties/evaluator_key/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.settings_values !== undefined){
let data3 = data.settings_values;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
}
else {
const err8 = {instancePath:instancePath+"/settings_values",schemaPath:"#/properties/settings_values/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.created_at !== undefined){
let data4 = data.created_at;
if(typeof data4 === "string"){
if(!(formats0.validate(data4))){
const err9 = {instancePath:instancePath+"/created_at",schemaPath:"#/properties/created_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/created_at",schemaPath:"#/properties/created_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.updated_at !== undefined){
let data5 = data.updated_at;
if(typeof data5 === "string"){
if(!(formats0.validate(data5))){
const err11 = {instancePath:instancePath+"/updated_at",schemaPath:"#/properties/updated_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/updated_at",schemaPath:"#/properties/updated_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
validate33.errors = vErrors;
return errors === 0;
}
validate33.evaluated = {"props":{"id":true,"name":true,"evaluator_key":true,"settings_values":true,"created_at":true,"updated_at":true},"dynamicProps":false,"dynamicItems":false};

export const validateUndocumentedEvaluatorConfig = validate25;

export const validateCreateEvaluationRequest = validate34;
const schema41 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/create-evaluation-request.json","title":"CreateEvaluationRequest","description":"Request body of Create Evaluation (POST /evaluations): builds evaluations for an application, a list of variants, a list of evaluator configurations and a test set. The lm_providers_keys values are credentials supplied by the caller per provider; they are never echoed.","type":"object","required":["app_id","variant_ids","evaluators_configs","testset_id","rate_limit"],"properties":{"app_id":{"type":"string","x-personal":true},"variant_ids":{"type":"array","items":{"type":"string"},"x-personal":true},"evaluators_configs":{"type":"array","items":{"type":"string"},"x-personal":true},"testset_id":{"type":"string","x-personal":true},"rate_limit":{"$ref":"rate-limit.json"},"lm_providers_keys":{"description":"Arbitrary property names, string values: a credential per provider. Never echoed.","type":"object","additionalProperties":{"type":"string"}},"correct_answer_column":{"type":"string"}},"examples":[{"app_id":"6637c0a25368ef07b03a64a0","variant_ids":["6637c0a25368ef07b03a64b1","6637c0a25368ef07b03a64b2"],"evaluators_configs":["6637c0a25368ef07b03a64d1"],"testset_id":"6637c0a25368ef07b03a64e0","rate_limit":{"batch_size":10,"max_retries":3,"retry_delay":3,"delay_between_batches":5},"lm_providers_keys":{"OPENAI_API_KEY":"<PROVIDER_KEY>"},"correct_answer_column":"correct_answer"}]};
const schema42 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/rate-limit.json","title":"RateLimit","description":"rate_limit of the create request: controls pacing of the evaluation run. All fields are required integers. Units, bounds and defaults of these integers: not shown.","type":"object","required":["batch_size","max_retries","retry_delay","delay_between_batches"],"properties":{"batch_size":{"type":"integer"},"max_retries":{"type":"integer"},"retry_delay":{"type":"integer"},"delay_between_batches":{"type":"integer"}},"examples":[{"batch_size":10,"max_retries":3,"retry_delay":3,"delay_between_batches":5}]};

function validate34(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/create-evaluation-request.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate34.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.app_id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "app_id"},message:"must have required property '"+"app_id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.variant_ids === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "variant_ids"},message:"must have required property '"+"variant_ids"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.evaluators_configs === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "evaluators_configs"},message:"must have required property '"+"evaluators_configs"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.testset_id === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "testset_id"},message:"must have required property '"+"testset_id"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.rate_limit === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "rate_limit"},message:"must have required property '"+"rate_limit"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.app_id !== undefined){
if(typeof data.app_id !== "string"){
const err5 = {instancePath:instancePath+"/app_id",schemaPath:"#/properties/app_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.variant_ids !== undefined){
let data1 = data.variant_ids;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
if(typeof data1[i0] !== "string"){
const err6 = {instancePath:instancePath+"/variant_ids/" + i0,schemaPath:"#/properties/variant_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath:instancePath+"/variant_ids",schemaPath:"#/properties/variant_ids/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.evaluators_configs !== undefined){
let data3 = data.evaluators_configs;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
if(typeof data3[i1] !== "string"){
const err8 = {instancePath:instancePath+"/evaluators_configs/" + i1,schemaPath:"#/properties/evaluators_configs/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/evaluators_configs",schemaPath:"#/properties/evaluators_configs/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.testset_id !== undefined){
if(typeof data.testset_id !== "string"){
const err10 = {instancePath:instancePath+"/testset_id",schemaPath:"#/properties/testset_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.rate_limit !== undefined){
let data6 = data.rate_limit;
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.batch_size === undefined){
const err11 = {instancePath:instancePath+"/rate_limit",schemaPath:"rate-limit.json/required",keyword:"required",params:{missingProperty: "batch_size"},message:"must have required property '"+"batch_size"+"'"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data6.max_retries === undefined){
const err12 = {instancePath:instancePath+"/rate_limit",schemaPath:"rate-limit.json/required",keyword:"required",params:{missingProperty: "max_retries"},message:"must have required property '"+"max_retries"+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data6.retry_delay === undefined){
const err13 = {instancePath:instancePath+"/rate_limit",schemaPath:"rate-limit.json/required",keyword:"required",params:{missingProperty: "retry_delay"},message:"must have required property '"+"retry_delay"+"'"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data6.delay_between_batches === undefined){
const err14 = {instancePath:instancePath+"/rate_limit",schemaPath:"rate-limit.json/required",keyword:"required",params:{missingProperty: "delay_between_batches"},message:"must have required property '"+"delay_between_batches"+"'"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(data6.batch_size !== undefined){
let data7 = data6.batch_size;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err15 = {instancePath:instancePath+"/rate_limit/batch_size",schemaPath:"rate-limit.json/properties/batch_size/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data6.max_retries !== undefined){
let data8 = data6.max_retries;
if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){
const err16 = {instancePath:instancePath+"/rate_limit/max_retries",schemaPath:"rate-limit.json/properties/max_retries/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data6.retry_delay !== undefined){
let data9 = data6.retry_delay;
if(!(((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9))) && (isFinite(data9)))){
const err17 = {instancePath:instancePath+"/rate_limit/retry_delay",schemaPath:"rate-limit.json/properties/retry_delay/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data6.delay_between_batches !== undefined){
let data10 = data6.delay_between_batches;
if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){
const err18 = {instancePath:instancePath+"/rate_limit/delay_between_batches",schemaPath:"rate-limit.json/properties/delay_between_batches/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/rate_limit",schemaPath:"rate-limit.json/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.lm_providers_keys !== undefined){
let data11 = data.lm_providers_keys;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
for(const key0 in data11){
if(typeof data11[key0] !== "string"){
const err20 = {instancePath:instancePath+"/lm_providers_keys/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/lm_providers_keys/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/lm_providers_keys",schemaPath:"#/properties/lm_providers_keys/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.correct_answer_column !== undefined){
if(typeof data.correct_answer_column !== "string"){
const err22 = {instancePath:instancePath+"/correct_answer_column",schemaPath:"#/properties/correct_answer_column/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
validate34.errors = vErrors;
return errors === 0;
}
validate34.evaluated = {"props":{"app_id":true,"variant_ids":true,"evaluators_configs":true,"testset_id":true,"rate_limit":true,"lm_providers_keys":true,"correct_answer_column":true},"dynamicProps":false,"dynamicItems":false};

export const validateRateLimit = validate35;

function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/rate-limit.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate35.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.batch_size === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "batch_size"},message:"must have required property '"+"batch_size"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.max_retries === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "max_retries"},message:"must have required property '"+"max_retries"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.retry_delay === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "retry_delay"},message:"must have required property '"+"retry_delay"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.delay_between_batches === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "delay_between_batches"},message:"must have required property '"+"delay_between_batches"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.batch_size !== undefined){
let data0 = data.batch_size;
if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){
const err4 = {instancePath:instancePath+"/batch_size",schemaPath:"#/properties/batch_size/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.max_retries !== undefined){
let data1 = data.max_retries;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err5 = {instancePath:instancePath+"/max_retries",schemaPath:"#/properties/max_retries/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.retry_delay !== undefined){
let data2 = data.retry_delay;
if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){
const err6 = {instancePath:instancePath+"/retry_delay",schemaPath:"#/properties/retry_delay/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.delay_between_batches !== undefined){
let data3 = data.delay_between_batches;
if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){
const err7 = {instancePath:instancePath+"/delay_between_batches",schemaPath:"#/properties/delay_between_batches/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate35.errors = vErrors;
return errors === 0;
}
validate35.evaluated = {"props":{"batch_size":true,"max_retries":true,"retry_delay":true,"delay_between_batches":true},"dynamicProps":false,"dynamicItems":false};

export const validateHTTPValidationError = validate36;
const schema44 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/http-validation-error.json","title":"HTTPValidationError","description":"The body of a 422 answer. Not shown by the spec (error bodies are not shown): this is FastAPI's shape, as the service sends it. Each entry of detail says where a problem is (loc: body, path or query, then field names and list indexes), what it is in words (msg) and its pydantic error type (type).","type":"object","required":["detail"],"properties":{"detail":{"type":"array","items":{"type":"object","required":["loc","msg","type"],"properties":{"loc":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"msg":{"type":"string"},"type":{"type":"string"}}}}},"examples":[{"detail":[{"loc":["body","rate_limit"],"msg":"field required","type":"value_error.missing"}]},{"detail":[{"loc":["body","variant_ids",0],"msg":"str type expected","type":"type_error.str"}]},{"detail":[{"loc":["path","evaluation_id"],"msg":"ensure this value has at most 1024 characters","type":"value_error.any_str.max_length"}]}]};

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/http-validation-error.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.detail === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "detail"},message:"must have required property '"+"detail"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.detail !== undefined){
let data0 = data.detail;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.loc === undefined){
const err1 = {instancePath:instancePath+"/detail/" + i0,schemaPath:"#/properties/detail/items/required",keyword:"required",params:{missingProperty: "loc"},message:"must have required property '"+"loc"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.msg === undefined){
const err2 = {instancePath:instancePath+"/detail/" + i0,schemaPath:"#/properties/detail/items/required",keyword:"required",params:{missingProperty: "msg"},message:"must have required property '"+"msg"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.type === undefined){
const err3 = {instancePath:instancePath+"/detail/" + i0,schemaPath:"#/properties/detail/items/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.loc !== undefined){
let data2 = data1.loc;
if(Array.isArray(data2)){
const len1 = data2.length;
for(let i1=0; i1<len1; i1++){
let data3 = data2[i1];
const _errs8 = errors;
let valid6 = false;
const _errs9 = errors;
if(typeof data3 !== "string"){
const err4 = {instancePath:instancePath+"/detail/" + i0+"/loc/" + i1,schemaPath:"#/properties/detail/items/properties/loc/items/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs9 === errors;
valid6 = valid6 || _valid0;
const _errs11 = errors;
if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){
const err5 = {instancePath:instancePath+"/detail/" + i0+"/loc/" + i1,schemaPath:"#/properties/detail/items/properties/loc/items/anyOf/1/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs11 === errors;
valid6 = valid6 || _valid0;
if(!valid6){
const err6 = {instancePath:instancePath+"/detail/" + i0+"/loc/" + i1,schemaPath:"#/properties/detail/items/properties/loc/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
else {
errors = _errs8;
if(vErrors !== null){
if(_errs8){
vErrors.length = _errs8;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err7 = {instancePath:instancePath+"/detail/" + i0+"/loc",schemaPath:"#/properties/detail/items/properties/loc/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.msg !== undefined){
if(typeof data1.msg !== "string"){
const err8 = {instancePath:instancePath+"/detail/" + i0+"/msg",schemaPath:"#/properties/detail/items/properties/msg/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.type !== undefined){
if(typeof data1.type !== "string"){
const err9 = {instancePath:instancePath+"/detail/" + i0+"/type",schemaPath:"#/properties/detail/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/detail/" + i0,schemaPath:"#/properties/detail/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/detail",schemaPath:"#/properties/detail/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":{"detail":true},"dynamicProps":false,"dynamicItems":false};

export const validateHTTPError = validate37;
const schema45 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://evalkit.dev/schemas/http-error.json","title":"HTTPError","description":"The body of an error answer other than a 422. Not shown by the spec (error bodies are not shown): this is FastAPI's shape, as the service sends it, where detail is a message or, from an HTTP exception raised with one, any JSON value.","type":"object","required":["detail"],"properties":{"detail":{"description":"What went wrong: a message such as \"App not found\", or any JSON value."}},"examples":[{"detail":"App not found"},{"detail":"Evaluation not found"}]};

function validate37(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://evalkit.dev/schemas/http-error.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate37.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.detail === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "detail"},message:"must have required property '"+"detail"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
else {
const err1 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
validate37.errors = vErrors;
return errors === 0;
}
validate37.evaluated = {"props":{"detail":true},"dynamicProps":false,"dynamicItems":false};
