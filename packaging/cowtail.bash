# bash completion for cowtail: commands, each command's options and the
# parser names, read from the binary's own help so they cannot drift.
# Installed as share/bash-completion/completions/cowtail.

# The options an item line of `cowtail help CMD` lists ("  --db FILE ...",
# "  -q, --quiet ...").
_cowtail_options()
{
    "$1" help "$2" 2>/dev/null |
        sed -n -E 's/^ {2,4}(-[a-zA-Z], )?(--[a-z0-9][a-z0-9-]*).*/\2/p'
}

# The names of the indented rows below the line of `cowtail help TOPIC`
# that starts with $3 ("commands:", "formats").
_cowtail_rows()
{
    "$1" help $2 2>/dev/null |
        awk -v head="$3" 'index($0, head) == 1 { on = 1; next }
                          on && /^  [a-z]/ { print $1; next }
                          on { exit }'
}

_cowtail()
{
    local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]} words
    COMPREPLY=()

    if [[ $COMP_CWORD -eq 1 ]]; then
        words="$(_cowtail_rows "$bin" "" "commands:") --help --version"
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi
    if [[ $cmd == help ]]; then
        [[ $COMP_CWORD -eq 2 ]] &&
            COMPREPLY=($(compgen -W "$(_cowtail_rows "$bin" "" "commands:") formats" -- "$cur"))
        return
    fi
    case $prev in
        --parser)
            COMPREPLY=($(compgen -W "$(_cowtail_rows "$bin" formats "formats")" -- "$cur"))
            return ;;
        --method)
            COMPREPLY=($(compgen -W "linear nearest" -- "$cur")); return ;;
        --time-unit|--latency-unit)
            COMPREPLY=($(compgen -W "s ms us ns" -- "$cur")); return ;;
        --mem-unit)
            COMPREPLY=($(compgen -W "bytes kB MB GB" -- "$cur")); return ;;
        --out)
            COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --db|--thresholds)
            return ;;       # file names (complete -o default)
        --label|--t0|--log-tz|--log-year|--seed|--resamples|--scale|--created|--scenario|--host)
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_cowtail_options "$bin" "$cmd") --help" -- "$cur"))
    fi
}
complete -o default -F _cowtail cowtail
