"""What Discord refuses, checked the way Discord checks it.

A bot that passes here fails the same way on Discord only if Discord adds rules; a bot that
fails here would have failed on Discord with the same code (50035 with a field path, or 50006).
"""

from __future__ import annotations

import re
from typing import Any

from .errors import JSON, FormErrors, empty_message

MAX_CONTENT = 2000
MAX_EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_V2_COMPONENTS = 40
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
SELECT_PLACEHOLDER = 150
MODAL_TITLE = 45

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_COMMANDS_PER_TYPE = {1: 100, 2: 15, 3: 15}
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2


def _too_long(errors: FormErrors, path: tuple[str | int, ...], limit: int) -> None:
    errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_text(
    errors: FormErrors, value: Any, path: tuple[str | int, ...], limit: int, *, required: bool
) -> int:
    """Checks one string field; returns its length so embed totals can be summed."""
    if value is None:
        if required:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return 0
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
        return 0
    if required and not value:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {limit} in length.")
    if len(value) > limit:
        _too_long(errors, path, limit)
    return len(value)


def validate_message(payload: JSON, *, creating: bool, has_attachments: bool = False) -> None:
    """Raises ApiError (50035 or 50006) for a message body Discord would refuse."""
    errors = FormErrors()
    flags = payload.get("flags") or 0
    if not isinstance(flags, int):
        errors.add(("flags",), "NUMBER_TYPE_COERCE", "Value is not int.")
        flags = 0
    v2 = bool(flags & FLAG_COMPONENTS_V2)

    content = payload.get("content")
    _check_text(errors, content, ("content",), MAX_CONTENT, required=False)

    embeds = payload.get("embeds")
    if embeds is not None:
        _validate_embeds(errors, embeds)

    components = payload.get("components")
    if components is not None:
        validate_components(errors, components, v2=v2)

    if v2 and (content or embeds):
        errors.add(
            ("content" if content else "embeds",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be set when using IS_COMPONENTS_V2",
        )
    errors.raise_if_any()

    has_body = content or embeds or has_attachments or payload.get("poll")
    if creating and not has_body and not (v2 and components):
        raise empty_message()


def _validate_embeds(errors: FormErrors, embeds: Any) -> None:
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > MAX_EMBEDS:
        _too_long(errors, ("embeds",), MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        path: tuple[str | int, ...] = ("embeds", i)
        if not isinstance(embed, dict):
            errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        total += _check_text(
            errors, embed.get("title"), (*path, "title"), EMBED_TITLE, required=False
        )
        total += _check_text(
            errors,
            embed.get("description"),
            (*path, "description"),
            EMBED_DESCRIPTION,
            required=False,
        )
        footer = embed.get("footer")
        if isinstance(footer, dict):
            total += _check_text(
                errors, footer.get("text"), (*path, "footer", "text"), EMBED_FOOTER, required=True
            )
        author = embed.get("author")
        if isinstance(author, dict):
            total += _check_text(
                errors, author.get("name"), (*path, "author", "name"), EMBED_AUTHOR, required=True
            )
        fields = embed.get("fields") or []
        if not isinstance(fields, list):
            errors.add((*path, "fields"), "BASE_TYPE_ARRAY", "Must be an array.")
            continue
        if len(fields) > EMBED_FIELDS:
            _too_long(errors, (*path, "fields"), EMBED_FIELDS)
        for j, field in enumerate(fields):
            fpath = (*path, "fields", j)
            if not isinstance(field, dict):
                errors.add(
                    fpath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"
                )
                continue
            total += _check_text(
                errors, field.get("name"), (*fpath, "name"), EMBED_FIELD_NAME, required=True
            )
            total += _check_text(
                errors, field.get("value"), (*fpath, "value"), EMBED_FIELD_VALUE, required=True
            )
    if total > EMBED_TOTAL:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )


def validate_components(errors: FormErrors, components: Any, *, v2: bool) -> None:
    """Rows, widths, custom ids (length and uniqueness within the message), labels, options."""
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    seen: dict[str, tuple[str | int, ...]] = {}
    if v2:
        count = _walk_v2(errors, components, ("components",), seen)
        if count > MAX_V2_COMPONENTS:
            _too_long(errors, ("components",), MAX_V2_COMPONENTS)
        return
    if len(components) > MAX_ROWS:
        _too_long(errors, ("components",), MAX_ROWS)
    for i, row in enumerate(components):
        path: tuple[str | int, ...] = ("components", i)
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            errors.add(
                (*path, "type"),
                "COMPONENT_TYPE_INVALID",
                "Top-level components must be action rows.",
            )
            continue
        _validate_row(errors, row, path, seen)


def _validate_row(
    errors: FormErrors,
    row: JSON,
    path: tuple[str | int, ...],
    seen: dict[str, tuple[str | int, ...]],
) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not 1 <= len(children) <= MAX_PER_ROW:
        errors.add(
            (*path, "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_PER_ROW} in length.",
        )
        if not isinstance(children, list):
            return
    has_select = any(isinstance(c, dict) and c.get("type") in SELECT_TYPES for c in children)
    if has_select and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        cpath = (*path, "components", j)
        if not isinstance(child, dict):
            errors.add(cpath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = child.get("type")
        if kind == BUTTON:
            _validate_button(errors, child, cpath, seen)
        elif kind in SELECT_TYPES:
            _validate_select(errors, child, cpath, seen)
        elif kind == TEXT_INPUT:
            _check_custom_id(errors, child, cpath, seen, required=True)
        else:
            errors.add(
                (*cpath, "type"),
                "COMPONENT_TYPE_INVALID",
                f"Component type {kind} is not allowed in an action row.",
            )


def _walk_v2(
    errors: FormErrors,
    components: list[Any],
    path: tuple[str | int, ...],
    seen: dict[str, tuple[str | int, ...]],
) -> int:
    """Components v2 nest freely; count everything and check the interactive ones."""
    count = 0
    for i, comp in enumerate(components):
        cpath = (*path, i)
        if not isinstance(comp, dict):
            errors.add(cpath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        count += 1
        kind = comp.get("type")
        if kind == ACTION_ROW:
            _validate_row(errors, comp, cpath, seen)
            children = comp.get("components")
            count += len(children) if isinstance(children, list) else 0
            continue
        if kind == BUTTON:
            _validate_button(errors, comp, cpath, seen)
        elif kind in SELECT_TYPES:
            _validate_select(errors, comp, cpath, seen)
        children = comp.get("components")
        if isinstance(children, list):
            count += _walk_v2(errors, children, (*cpath, "components"), seen)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            count += _walk_v2(errors, [accessory], (*cpath, "accessory"), seen)
    return count


def _check_custom_id(
    errors: FormErrors,
    comp: JSON,
    path: tuple[str | int, ...],
    seen: dict[str, tuple[str | int, ...]],
    *,
    required: bool,
) -> None:
    custom_id = comp.get("custom_id")
    _check_text(errors, custom_id, (*path, "custom_id"), CUSTOM_ID, required=required)
    if isinstance(custom_id, str) and custom_id:
        if custom_id in seen:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen[custom_id] = path


def _validate_button(
    errors: FormErrors,
    button: JSON,
    path: tuple[str | int, ...],
    seen: dict[str, tuple[str | int, ...]],
) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(
            (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6)."
        )
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.add((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
        if button.get("custom_id"):
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A custom id cannot be specified",
            )
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            errors.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _check_custom_id(errors, button, path, seen, required=True)
    label = button.get("label")
    _check_text(errors, label, (*path, "label"), BUTTON_LABEL, required=False)
    if style != PREMIUM_STYLE and not label and not button.get("emoji"):
        errors.add(
            (*path, "label"),
            "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
            "A label or emoji is required",
        )


def _validate_select(
    errors: FormErrors,
    select: JSON,
    path: tuple[str | int, ...],
    seen: dict[str, tuple[str | int, ...]],
) -> None:
    _check_custom_id(errors, select, path, seen, required=True)
    _check_text(
        errors,
        select.get("placeholder"),
        (*path, "placeholder"),
        SELECT_PLACEHOLDER,
        required=False,
    )
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not isinstance(min_values, int) or not 0 <= min_values <= SELECT_OPTIONS:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 0.")
    if not isinstance(max_values, int) or not 1 <= max_values <= SELECT_OPTIONS:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 1.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= SELECT_OPTIONS:
        errors.add(
            (*path, "options"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {SELECT_OPTIONS} in length.",
        )
        if not isinstance(options, list):
            return
    if isinstance(max_values, int) and max_values > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values cannot exceed the number of options",
        )
    values: set[str] = set()
    for k, option in enumerate(options):
        opath = (*path, "options", k)
        if not isinstance(option, dict):
            errors.add(opath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        _check_text(
            errors, option.get("label"), (*opath, "label"), SELECT_OPTION_TEXT, required=True
        )
        value = option.get("value")
        _check_text(errors, value, (*opath, "value"), SELECT_OPTION_TEXT, required=True)
        _check_text(
            errors,
            option.get("description"),
            (*opath, "description"),
            SELECT_OPTION_TEXT,
            required=False,
        )
        if isinstance(value, str):
            if value in values:
                errors.add(
                    (*opath, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select option values must be unique",
                )
            values.add(value)


def validate_modal(data: JSON) -> None:
    """Modals are acknowledged but never submitted here; their shape still has to be right."""
    errors = FormErrors()
    seen: dict[str, tuple[str | int, ...]] = {}
    _check_custom_id(errors, data, ("data",), seen, required=True)
    _check_text(errors, data.get("title"), ("data", "title"), MODAL_TITLE, required=True)
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= MAX_ROWS:
        errors.add(
            ("data", "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_ROWS} in length.",
        )
    errors.raise_if_any()


def validate_commands(commands: Any) -> None:
    """The checks behind discord.py's CommandSyncFailure: names, descriptions, option counts."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_ARRAY", "Must be an array.")
        errors.raise_if_any()
        return
    names: dict[int, set[str]] = {}
    for i, command in enumerate(commands):
        path: tuple[str | int, ...] = (i,)
        if not isinstance(command, dict):
            errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = command.get("type", 1)
        name = command.get("name")
        taken = names.setdefault(kind, set())
        if isinstance(name, str) and name in taken:
            errors.add(
                (*path, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique (duplicate: {name})",
            )
        if isinstance(name, str):
            taken.add(name)
        if kind == 1:
            _validate_command_name(errors, name, (*path, "name"))
            _check_text(
                errors, command.get("description"), (*path, "description"), 100, required=True
            )
            _validate_options(errors, command.get("options") or [], (*path, "options"), depth=0)
        else:
            _check_text(errors, name, (*path, "name"), 32, required=True)
    for kind, taken in names.items():
        limit = MAX_COMMANDS_PER_TYPE.get(kind, 100)
        if len(taken) > limit:
            errors.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    errors.raise_if_any()


def _validate_command_name(errors: FormErrors, name: Any, path: tuple[str | int, ...]) -> None:
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid (1-32 lowercase letters, digits, '-' or '_')",
        )


def _validate_options(
    errors: FormErrors, options: Any, path: tuple[str | int, ...], *, depth: int
) -> None:
    if not isinstance(options, list):
        errors.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(options) > 25:
        _too_long(errors, path, 25)
    seen_optional = False
    for k, option in enumerate(options):
        opath = (*path, k)
        if not isinstance(option, dict):
            errors.add(opath, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = option.get("type")
        _validate_command_name(errors, option.get("name"), (*opath, "name"))
        _check_text(errors, option.get("description"), (*opath, "description"), 100, required=True)
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if depth >= 2 or (kind == SUB_COMMAND_GROUP and depth >= 1):
                errors.add(
                    (*opath, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups cannot be nested this deep",
                )
            _validate_options(
                errors, option.get("options") or [], (*opath, "options"), depth=depth + 1
            )
            continue
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*opath, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = option.get("choices")
        if isinstance(choices, list) and len(choices) > 25:
            _too_long(errors, (*opath, "choices"), 25)
