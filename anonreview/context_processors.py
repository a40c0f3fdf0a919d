from anonreview import roles as role_checks


def roles(request) -> dict[str, bool]:
    """Expose the user's role to templates (navigation, buttons)."""
    user = getattr(request, "user", None)
    return {
        "user_is_lead": bool(user) and role_checks.is_lead(user),
        "user_is_admin": bool(user) and role_checks.is_admin(user),
    }
