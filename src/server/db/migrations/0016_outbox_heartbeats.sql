-- Issue 34 item 4: the outbox workers' heartbeats, so another instance takes a dead instance's
-- claims back in seconds (mail/outbox.ts), and an index of the rows under way that it looks in.
CREATE TABLE "outbox_instances" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_claimed_by_idx" ON "outbox" USING btree ("claimed_by") WHERE "outbox"."claimed_by" is not null;