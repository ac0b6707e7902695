-- Issue 36 item 3: the broker's team works call-backs: a status (new, contacted, quoted, closed;
-- the old 'open' is 'new'), an assignee, and notes. The SQL drizzle-kit wrote, with the old rows
-- moved to 'new' before the check.
CREATE TABLE "call_back_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"call_back_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"author" text NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_backs" ALTER COLUMN "status" SET DEFAULT 'new';--> statement-breakpoint
ALTER TABLE "call_backs" ADD COLUMN "assignee" text;--> statement-breakpoint
ALTER TABLE "call_back_notes" ADD CONSTRAINT "call_back_notes_call_back_id_call_backs_id_fk" FOREIGN KEY ("call_back_id") REFERENCES "public"."call_backs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_back_notes_call_back_id_idx" ON "call_back_notes" USING btree ("call_back_id");--> statement-breakpoint
UPDATE "call_backs" SET "status" = 'new' WHERE "status" NOT IN ('new', 'contacted', 'quoted', 'closed');--> statement-breakpoint
ALTER TABLE "call_backs" ADD CONSTRAINT "call_backs_status_check" CHECK ("call_backs"."status" in ('new', 'contacted', 'quoted', 'closed'));