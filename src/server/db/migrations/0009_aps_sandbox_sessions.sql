CREATE TABLE "aps_sandbox_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"request" jsonb NOT NULL,
	"return_url" text NOT NULL,
	"lang" text NOT NULL,
	"card_form" jsonb,
	"response" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
