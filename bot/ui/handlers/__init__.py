"""What a click or a command does: service calls, then the answer and the publishing."""
