"""Timer4Tasker: a lightweight scheduled task management service."""
